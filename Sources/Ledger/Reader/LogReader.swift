import Events

/// Reads a log file line by line, in chunks, without taking the writer lock.
///
/// Memory stays flat in the log's size. Each line is decoded straight from
/// the read buffer. Bytes after the last LF (a torn tail) are not data: they
/// are reported in the summary, never handed to the callback.
///
/// ```swift
/// let reader = LogReader(path: "progress.log")
/// let summary = try reader.forEachRecord { record in fold(record) }   // throws .damaged on the first problem
/// ```
public struct LogReader {
    /// The log's path.
    public let path: String
    /// How many bytes to read per `pread`.
    public var chunkSize: Int
    var system: System
    /// How ids are hashed for the duplicate check (tests narrow it to force collisions).
    var idHasher = IDHasher()

    /// A reader of the log at `path`. Nothing is opened until a read.
    public init(path: String, chunkSize: Int = 1 << 20) {
        self.init(path: path, chunkSize: chunkSize, system: System())
    }

    init(path: String, chunkSize: Int = 1 << 20, system: System) {
        self.path = path; self.chunkSize = max(chunkSize, 4096); self.system = system
    }

    /// What a raw read saw.
    public struct Summary: Sendable, Hashable {
        /// Complete lines read.
        public var lines: Int
        /// Bytes of complete lines (the offset of the torn tail, if any).
        public var completeBytes: Int
        /// Bytes after the last LF, if any.
        public var tornTail: TornTail?
    }

    /// Calls `body` with every complete line, in order, unvalidated beyond
    /// decoding: each line's `record` says whether it is a valid line by itself.
    ///
    /// Reads the file as it is when the read starts (bytes appended later are not read).
    @discardableResult
    public func forEachLine(_ body: (LogLine) throws(LedgerError) -> Void) throws(LedgerError) -> Summary {
        try withOpenFile { (fd, size) throws(LedgerError) in
            var lines = 0
            let scanner = LineScanner(system: system, fd: fd, path: path, chunkSize: chunkSize)
            let tail = try scanner.scan(from: 0, to: size, firstLine: 1) { (line) throws(LedgerError) in
                lines += 1
                try body(LogLine(line, record: line.decode()))
            }
            return Summary(lines: lines, completeBytes: tail?.offset ?? size, tornTail: tail)
        }
    }

    /// Calls `body` with every record of an intact log, in order, checking the
    /// whole chain as `verify` does (seq, prev, unique ids, every line valid).
    ///
    /// Throws a `.damaged` error whose message is `verify`'s (`line K: KIND: detail`)
    /// at the first problem; `body` has then already seen the lines before it,
    /// so discard what it built. A torn tail is not an error: it is in the summary.
    ///
    /// `progress`, if given, is called after each line with the bytes read so
    /// far and the file's size when the read started (for a progress display).
    @discardableResult
    public func forEachRecord(progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
                              _ body: (Record) throws(LedgerError) -> Void) throws(LedgerError) -> LogSummary {
        try forEachRecord(keeping: .all, progress: progress, body)
    }

    /// Like ``forEachRecord(progress:_:)`` (every line is checked the same
    /// way), but calls `body` only with the records of `user` and the
    /// newer-version lines whose user cannot be read: what `state --user`
    /// folds. Users are compared by their UTF-8 bytes, exactly.
    ///
    /// Faster than filtering in `body`: other users' records are dropped on
    /// the threads that decode them.
    @discardableResult
    public func forEachRecord(ofUser user: String, progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
                              _ body: (Record) throws(LedgerError) -> Void) throws(LedgerError) -> LogSummary {
        try forEachRecord(keeping: .user(Array(user.utf8)), progress: progress, body)
    }

    /// Like ``forEachRecord(progress:_:)`` (every line is checked the same
    /// way, and `body` sees exactly the same records in the same order), but
    /// `body` owns each record it gets: it can keep it (move it into a
    /// collection, hand it to another thread) without copying it, and it is
    /// released wherever `body` lets it go. For a fold that runs on a thread
    /// of its own: the calling thread then neither retains nor releases the
    /// records' strings.
    @discardableResult
    public func forEachOwnedRecord(progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
                                   _ body: (consuming Record) throws(LedgerError) -> Void) throws(LedgerError) -> LogSummary {
        try withOpenFile { (fd, size) throws(LedgerError) in
            var chain = ReadChain(ids: IDFingerprints(lines: earlierLines(fd)))
            var read = 0
            let tail = try pipeline(fd, keeping: .all).run(from: 0, to: size, firstLine: 1, ahead: { chain.prefetch($0) }, { (line) throws(LedgerError) in
                if let problem = try chain.accept(line) { throw LedgerError(damaged: problem, path: path) }
                read = line.offset + line.length + 1
            }, give: { (record) throws(LedgerError) in
                try body(record)
                progress?(read, size)
            })
            return chain.summary(tornTail: tail)
        }
    }

    /// Like ``forEachRecord(progress:_:)`` (every line is checked the same
    /// way, and `body` sees exactly the same records in the same order), but
    /// hands the records over in runs (about a thousand at a time), each
    /// with a hash of its user: for a fold that spreads the work over threads
    /// by learner, or just saves a call per record.
    ///
    /// On the first problem, `body` first gets the records of the lines
    /// before it, then the `.damaged` error is thrown. `progress` is called
    /// after each batch.
    @discardableResult
    public func forEachRecordBatch(progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
                                   _ body: (RecordBatch) throws(LedgerError) -> Void) throws(LedgerError) -> LogSummary {
        try withOpenFile { (fd, size) throws(LedgerError) in
            var chain = ReadChain(ids: IDFingerprints(lines: earlierLines(fd)))
            var pipeline = pipeline(fd, keeping: .all)
            pipeline.hashesUsers = true
            let tail = try pipeline.runBatches(from: 0, to: size, firstLine: 1, ahead: { chain.prefetch($0) },
                                               check: { (line) throws(LedgerError) in
                if let problem = try chain.accept(line) { throw LedgerError(damaged: problem, path: path) }
            }, batch: { (batch, end) throws(LedgerError) in
                try body(batch)
                progress?(end, size)
            })
            return chain.summary(tornTail: tail)
        }
    }

    private func forEachRecord(keeping filter: RecordFilter, progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)?,
                               _ body: (Record) throws(LedgerError) -> Void) throws(LedgerError) -> LogSummary {
        try withOpenFile { (fd, size) throws(LedgerError) in
            var chain = ReadChain(ids: IDFingerprints(lines: earlierLines(fd)))
            var read = 0
            let tail = try pipeline(fd, keeping: filter).run(from: 0, to: size, firstLine: 1, ahead: { chain.prefetch($0) }, { (line) throws(LedgerError) in
                if let problem = try chain.accept(line) { throw LedgerError(damaged: problem, path: path) }
                read = line.offset + line.length + 1
                if !line.hasRecord { progress?(read, size) }
            }, keep: { (record) throws(LedgerError) in
                try body(record)
                progress?(read, size)
            })
            return chain.summary(tornTail: tail)
        }
    }

    /// The read pipeline over the open log `fd`.
    func pipeline(_ fd: CInt, keeping filter: RecordFilter) -> LinePipeline {
        LinePipeline(scanner: LineScanner(system: system, fd: fd, path: path, chunkSize: chunkSize), keep: filter, hasher: idHasher)
    }

    /// Reads lines of the open log `fd` back, for the id index to confirm a match.
    func earlierLines(_ fd: CInt) -> EarlierLines { EarlierLines(system: system, fd: fd, path: path) }

    /// Checks every line as the spec's "Verification" says and returns the
    /// first problem, or the count and head. See ``verify(path:expectHead:)``.
    public func verify(expectHead: Head? = nil) throws(LedgerError) -> VerifyReport {
        try withOpenFile { (fd, size) throws(LedgerError) in
            var chain = ReadChain(ids: IDFingerprints(lines: earlierLines(fd)), expectHead: expectHead)
            var problem: LineProblem? = nil
            do throws(LedgerError) {
                let tail = try pipeline(fd, keeping: .none).run(from: 0, to: size, firstLine: 1, ahead: { chain.prefetch($0) }) { (line) throws(LedgerError) in
                    if let p = try chain.accept(line) {
                        problem = p
                        throw LedgerError(.damaged, path: path, "stop")
                    }
                }
                if problem == nil, let expectHead, expectHead.seq > chain.count {
                    problem = LineProblem(line: expectHead.seq, kind: .headMismatch,
                                          "the log has only \(chain.count) line\(chain.count == 1 ? "" : "s"), "
                                              + "so line \(expectHead.seq) (expected to hash to \(expectHead.sha256)) is missing")
                }
                return VerifyReport(path: path, problem: problem, summary: chain.summary(tornTail: tail))
            } catch {
                guard problem != nil else { throw error }
                return VerifyReport(path: path, problem: problem, summary: chain.summary(tornTail: nil))
            }
        }
    }

    /// Opens the file read-only, checks it is a regular file, and runs `body` with its descriptor and size.
    private func withOpenFile<T>(_ body: (CInt, Int) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try withOpenLog { (fd, status) throws(LedgerError) in try body(fd, status.size) }
    }

    /// Opens the file read-only, checks it is a regular file, and runs `body` with its descriptor and status.
    func withOpenLog<T>(_ body: (CInt, FileStatus) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let fd: CInt
        do {
            fd = try system.open(path, .read)
        } catch {
            if error.errno == .noEntry { throw LedgerError(.notFound, error, path: path, "the log does not exist") }
            throw LedgerError(error, path: path, doing: "opening the log")
        }
        defer { system.close(fd) }
        let status: FileStatus
        do { status = try system.fstat(fd) } catch { throw LedgerError(error, path: path, doing: "reading the log's status") }
        switch status.kind {
        case .regular: break
        case .directory: throw LedgerError(.isDirectory, path: path, "is a directory, not a log file")
        default: throw LedgerError(.notRegularFile, path: path, "is not a regular file (a FIFO, socket or device?)")
        }
        return try body(fd, status)
    }
}

/// Checks the log at `path` as the spec's "Verification" section says: the
/// first problem as `line K: KIND: detail`, or the event count and the head.
///
/// `expectHead` also checks that line `expectHead.seq` still hashes to
/// `expectHead.sha256`. A torn tail is a warning in the report, not a problem.
/// Throws only when the file cannot be read (missing, a directory, I/O).
public func verify(path: String, expectHead: Head? = nil) throws(LedgerError) -> VerifyReport {
    try LogReader(path: path).verify(expectHead: expectHead)
}
