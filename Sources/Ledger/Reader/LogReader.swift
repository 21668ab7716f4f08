import Events

/// Reads a log file, checking every line as `verify` does, without taking the writer lock.
///
/// One entry point, ``read(_:_:)``: options in (a learner, a snapshot file,
/// a progress callback), records out, in log order. Memory stays flat in the
/// log's size; lines are decoded and hashed on worker threads and checked in
/// order on the calling thread. Bytes after the last LF (a torn tail) are not
/// data: they are reported in the summary, never handed to the callback.
///
/// ```swift
/// let reader = LogReader(path: "progress.log")
/// var projector = LearnerProjector(options: StateOptions(user: "u-42"))
/// let read = try reader.read(.init(user: "u-42", snapshot: "u-42.snapshot")) { projector.apply($0) }
/// if let why = read.snapshotIgnored { print("snapshot ignored: \(why)") }   // the whole log was read
/// try read.saveSnapshot()                          // the next read starts from here
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

    /// What a read hands over, and where it may start.
    public struct Options {
        /// Only this learner's records (users compared by their UTF-8 bytes,
        /// exactly) and the newer-version lines whose user cannot be read;
        /// nil: every record. Every line is checked either way, and other
        /// users' records are dropped on the threads that decode them.
        public var user: String?
        /// A snapshot file: when it matches the log and `user`, the read
        /// starts from it (its records are handed over first, then only the
        /// lines appended since are read and checked); otherwise the whole
        /// log is read and ``LogRead/snapshotIgnored`` says why. Either way
        /// ``LogRead/saveSnapshot()`` brings the file up to date. The file
        /// keeps the selected lines (and 8 bytes per line of the log): meant
        /// for one learner's read, where it stays small.
        public var snapshot: String?
        /// Called as lines are read, with the bytes read so far and the
        /// file's size when the read started (for a progress display).
        public var progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)?

        /// Options; the defaults read every record of the whole log.
        public init(user: String? = nil, snapshot: String? = nil,
                    progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil) {
            self.user = user; self.snapshot = snapshot; self.progress = progress
        }

        /// With no `user`: records for a fold of every learner that reads only
        /// whose event it is, when and what happened (`items`, `leaderboard`;
        /// the report reads less: ``readFoldEvents(progress:_:)``): made but
        /// for the envelope's text other than `user` (`id`, `at`'s text,
        /// `device` and `prev` are empty).
        package var forFold = false

        var filter: RecordFilter { user.map { .user(Array($0.utf8)) } ?? (forFold ? .allForFold : .all) }
    }

    /// Calls `body` with the records `options` select, in log order, checking
    /// the whole chain as `verify` does (seq, prev, unique ids, every line valid).
    ///
    /// `body` owns each record: it can keep it or hand it to another thread
    /// without a copy (the reading thread then never releases it).
    ///
    /// Throws a `.damaged` error whose message is `verify`'s (`line K: KIND: detail`)
    /// at the first problem; `body` has then already seen the records before
    /// it, so discard what it built. A torn tail is not an error: it is in the
    /// summary. A snapshot that does not match is not an error either: see
    /// ``Options/snapshot``.
    @discardableResult
    public func read(_ options: Options = Options(),
                     _ body: (consuming Record) throws(LedgerError) -> Void) throws(LedgerError) -> LogRead {
        guard let snapshotPath = options.snapshot else {
            return LogRead(summary: try scanWhole(options, tracking: false, body).summary)
        }
        return try readResuming(snapshotPath, options, body)
    }

    /// Calls `body` with every complete line, in order, unvalidated beyond
    /// decoding: each line's `record` says whether it is a valid line by
    /// itself. For tools that look at a damaged log (`ledger-stress`).
    @discardableResult
    package func forEachLine(_ body: (LogLine) throws(LedgerError) -> Void) throws(LedgerError) -> LineCount {
        try withOpenLog { (fd, status) throws(LedgerError) in
            var lines = 0
            let scanner = LineScanner(system: system, fd: fd, path: path, chunkSize: chunkSize)
            let tail = try scanner.scan(from: 0, to: status.size, firstLine: 1) { (line) throws(LedgerError) in
                lines += 1
                try body(LogLine(line, record: line.decode()))
            }
            return LineCount(lines: lines, tornTail: tail)
        }
    }

    /// What ``forEachLine(_:)`` saw.
    package struct LineCount: Sendable, Hashable {
        /// Complete lines read.
        package var lines: Int
        /// Bytes after the last LF, if any.
        package var tornTail: TornTail?
    }

    /// The read pipeline over the open log `fd`.
    func pipeline<Keeping: LineKeeping>(_ fd: CInt, keeping filter: Keeping) -> KeepingPipeline<Keeping> {
        KeepingPipeline(scanner: LineScanner(system: system, fd: fd, path: path, chunkSize: chunkSize,
                                             firstReadLimit: KeepingPipeline<Keeping>.firstReadBytes),
                        keep: filter, hasher: idHasher)
    }

    /// Checks the lines of the open log `fd` in `[start, end)` as
    /// ``KeepingPipeline/run(from:to:firstLine:into:)`` does (the same
    /// scanner, the same check of each line, the same calls of `consumer`):
    /// on worker threads for a long stretch, on the calling thread for one
    /// shorter than ``serialBytes`` (a learner log of a ledger directory, a
    /// snapshot's new lines), where handing chunks to workers costs more than it saves.
    func checkLines<Keeping: LineKeeping, Consumer: CheckedLineConsumer>(
        _ fd: CInt, keeping filter: Keeping, from start: Int, to end: Int, firstLine: Int,
        into consumer: inout Consumer
    ) throws(LedgerError) -> TornTail? where Consumer.Kept == Keeping.Kept {
        guard end - start < Self.serialBytes else {
            return try pipeline(fd, keeping: filter).run(from: start, to: end, firstLine: firstLine, into: &consumer)
        }
        let scanner = LineScanner(system: system, fd: fd, path: path, chunkSize: min(chunkSize, max(end - start, 4096)))
        let hasher = idHasher
        return try scanner.scan(from: start, to: end, firstLine: firstLine) { (line) throws(LedgerError) in
            var record: Keeping.Kept? = nil
            let checked = filter.check(line, hasher: hasher) { record = $0 }
            try consumer.consume(checked)
            if let kept = record.take() { try consumer.give(kept) }
        }
    }

    /// Below how many bytes ``checkLines(_:keeping:from:to:firstLine:into:)``
    /// checks on the calling thread (measured: docs/performance.md, "A learner log on one thread").
    static let serialBytes = 1 << 20

    /// Reads lines of the open log `fd` back, for the id index to confirm a match.
    func earlierLines(_ fd: CInt) -> EarlierLines { EarlierLines(system: system, fd: fd, path: path) }

    /// Checks every line as the spec's "Verification" says and returns the
    /// first problem, or the count and head. See ``verify(path:expectHead:)``.
    public func verify(expectHead: Head? = nil) throws(LedgerError) -> VerifyReport {
        try verify(expectHead: expectHead) { _ in }
    }

    /// ``verify(expectHead:)``, calling `leaves` with the digest of each line
    /// the chain accepts, in order (a stub's `redacted`): the Merkle tree's
    /// leaves (``LogTree``), read in the same pass.
    func verify(expectHead: Head?, leaves: (SHA256.Digest) -> Void) throws(LedgerError) -> VerifyReport {
        try withoutActuallyEscaping(leaves) { leaves throws(LedgerError) in
            try withOpenLog { (fd, status) throws(LedgerError) in
                var lines = VerifiedLines(chain: ReadChain(ids: IDFingerprints(lines: earlierLines(fd), expectedBytes: status.size), expectHead: expectHead),
                                          leaves: leaves)
                do throws(LedgerError) {
                    let tail = try pipeline(fd, keeping: RecordFilter.none).run(from: 0, to: status.size, firstLine: 1, into: &lines)
                    if lines.problem == nil, let expectHead, expectHead.seq > lines.chain.count {
                        let count = lines.chain.count
                        lines.problem = LineProblem(line: expectHead.seq, kind: .headMismatch,
                                                    "the log has only \(count) line\(count == 1 ? "" : "s"), "
                                                        + "so line \(expectHead.seq) (expected to hash to \(expectHead.sha256)) is missing")
                    }
                    return VerifyReport(path: path, problem: lines.problem, summary: lines.chain.summary(tornTail: tail))
                } catch {
                    guard lines.problem != nil else { throw error }
                    return VerifyReport(path: path, problem: lines.problem, summary: lines.chain.summary(tornTail: nil))
                }
            }
        }
    }

    /// What ``verify(expectHead:leaves:)`` does with each checked line: the
    /// chain's checks, stopping at the first problem (kept in `problem`), and
    /// each accepted line's digest to `leaves`.
    private struct VerifiedLines: CheckedLineConsumer {
        var chain: ReadChain
        let leaves: (SHA256.Digest) -> Void
        /// The first problem, once found (the read then stops).
        var problem: LineProblem? = nil

        func ahead(_ idHash: UInt64) { chain.prefetch(idHash) }

        @inline(__always) mutating func consume(_ line: borrowing CheckedLine) throws(LedgerError) {
            if let p = try chain.accept(line) {
                problem = p
                throw LedgerError(.damaged, path: "", "stop")
            }
            leaves(line.digest)
        }

        func give(_ kept: consuming Record) {}
    }

    /// Opens the file read-only, checks it is a regular file, and runs `body` with its descriptor and status.
    func withOpenLog<T>(_ body: (CInt, FileStatus) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try RegularFile.withOpen(path, isLog: true, system: system, body)
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
