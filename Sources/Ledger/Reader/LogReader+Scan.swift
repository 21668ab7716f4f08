import Events

/// The checked read, from the first line or from a resume point.
extension LogReader {
    /// What ``scan(after:_:tracking:_:)`` read.
    struct Scanned {
        /// The whole log's summary.
        var summary: LogSummary
        /// Where the read stopped (meaningful only when tracking).
        var resumePoint: ResumePoint
        /// Complete lines read (only the tail when resumed).
        var linesRead: Int
        /// The bytes of the lines whose records were handed over, each ended by its LF (when tracking).
        var keptLines: [UInt8]
    }

    /// The one checked read: calls `body` with the records `options.user`
    /// selects after `resumePoint` (from the first line when nil), checking
    /// each line as `verify` does with the chain going on from the
    /// resume point's head.
    ///
    /// Before any record is read, the resume point must still describe this
    /// file: the same file (device and inode), at least `offset` bytes long,
    /// and the line that ends at `offset` hashes to the resume point's head;
    /// otherwise the result is a ``SnapshotRejection`` and `body` has seen
    /// nothing. A new line whose id may repeat an id from before the
    /// resume point is also a rejection (``SnapshotRejection/Reason/repeatedID``),
    /// found while reading: `body` has then seen some records.
    ///
    /// With `tracking`, also returns the resume point where the read stopped
    /// (with the digests of every id) and the bytes of the lines handed
    /// over, for the next snapshot.
    func scan(after resumePoint: ResumePoint?, _ options: Options, tracking: Bool,
              _ body: (consuming Record) throws(LedgerError) -> Void) throws(LedgerError) -> Result<Scanned, SnapshotRejection> {
        try scan(after: resumePoint, options, keeping: options.filter, tracking: tracking, body)
    }

    /// ``scan(after:_:tracking:_:)``, keeping of each line what `keeping`
    /// keeps (the records `options.user` selects, or the report's fold events).
    /// With a `foldThread`, a long read hands its kept values there instead
    /// of to `body` (``KeptFoldThread``: on a thread of its own, one at a
    /// time, in log order, all done before this returns), while the calling
    /// thread reads and runs the chain; a short read calls `body`.
    func scan<Keeping: LineKeeping>(after resumePoint: ResumePoint?, _ options: Options, keeping: Keeping, tracking: Bool,
                                    foldThread: KeptFoldThread<Keeping.Kept>? = nil,
                                    _ body: (consuming Keeping.Kept) throws(LedgerError) -> Void) throws(LedgerError) -> Result<Scanned, SnapshotRejection> {
        try withoutActuallyEscaping(body) { body throws(LedgerError) in try withOpenLog { (fd, status) throws(LedgerError) -> Result<Scanned, SnapshotRejection> in
            var chain: ReadChain
            var start = 0
            var prior = IDDigests()
            if let resumePoint {
                if let rejection = try mismatch(resumePoint, fd: fd, status: status) { return .failure(rejection) }
                chain = ReadChain(resumingAfter: resumePoint.head, newerVersionLines: resumePoint.newerVersionLines,
                                  ids: IDFingerprints(firstSeq: resumePoint.head.seq + 1, lines: earlierLines(fd),
                                                     expectedBytes: status.size - resumePoint.offset))
                start = resumePoint.offset
                prior = resumePoint.ids
            } else {
                chain = ReadChain(ids: IDFingerprints(lines: earlierLines(fd), expectedBytes: status.size))
            }
            let firstCount = chain.count
            var lines = ScannedLines<Keeping.Kept>(chain: chain, tracking: tracking, prior: prior, progress: options.progress,
                                                   size: status.size, path: path, end: start, handOver: body)
            lines.foldThread = foldThread
            let tail: TornTail?
            do throws(LedgerError) {
                tail = try checkLines(fd, keeping: keeping, from: start, to: status.size, firstLine: chain.count + 1, into: &lines)
            } catch {
                if let repeated = lines.repeated { return .failure(repeated) }
                throw error
            }
            chain = lines.chain
            let (end, digests, kept) = (lines.end, lines.digests, lines.kept)
            let reached = ResumePoint(file: FileIdentity(device: status.device, inode: status.inode), offset: end,
                                        head: chain.head, newerVersionLines: chain.newerVersionLines,
                                        ids: tracking ? prior.adding(digests) : IDDigests())
            // Every line read was accepted by the chain (a read that ends otherwise throws).
            return .success(Scanned(summary: chain.summary(tornTail: tail), resumePoint: reached, linesRead: chain.count - firstCount,
                                    keptLines: try readLines(kept, fd: fd)))
        } }
    }

    /// What ``scan(after:_:keeping:tracking:_:)`` does with each checked
    /// line: the chain's checks, the progress, and (when tracking) where the
    /// lines read end and each id's digest, refused when it may repeat one
    /// before the resume point, and where each kept line is.
    private struct ScannedLines<Kept>: CheckedLineConsumer {
        var chain: ReadChain
        let tracking: Bool
        /// The digests of the ids before the resume point.
        let prior: IDDigests
        let progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)?
        let size: Int
        let path: String
        /// Where the lines read end (when tracking: only a resume point needs it).
        var end: Int
        /// Where the kept values go.
        let handOver: (consuming Kept) throws(LedgerError) -> Void
        /// Why the read was refused, when an id may repeat one before the resume point.
        var repeated: SnapshotRejection? = nil
        /// The digests of the ids read now, and where the lines handed over are.
        var digests: [UInt64] = []
        var kept: [(offset: Int, length: Int, digest: SHA256.Digest)] = []
        /// Where a long read's kept values go instead of `handOver` on this thread (nil: `handOver`).
        var foldThread: KeptFoldThread<Kept>? = nil

        init(chain: ReadChain, tracking: Bool, prior: IDDigests, progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)?,
             size: Int, path: String, end: Int, handOver: @escaping (consuming Kept) throws(LedgerError) -> Void) {
            self.chain = chain; self.tracking = tracking; self.prior = prior; self.progress = progress
            self.size = size; self.path = path; self.end = end; self.handOver = handOver
        }

        func ahead(_ idHash: UInt64) { chain.prefetch(idHash) }

        // Inlined into the pipeline's loop (a call, and a merged copy shared
        // with the serial read, cost ~25 instructions a line).
        @inline(__always) mutating func consume(_ line: borrowing CheckedLine) throws(LedgerError) {
            if let problem = try chain.accept(line) { throw LedgerError(damaged: problem, path: path) }
            // An untracked read (cold `state`) does no more a line than `verify`'s
            // consumer: the count of lines read is the chain's, the end only a resume point's.
            if tracking { try track(line) }
            if let progress { progress(line.offset + line.length + 1, size) }
        }

        /// A tracked read's bookkeeping of `line`, accepted by the chain: where
        /// the lines end, its id's digest (refused when it may repeat one
        /// before the resume point) and where it is when its record is kept.
        @inline(never) private mutating func track(_ line: borrowing CheckedLine) throws(LedgerError) {
            end = line.offset + line.length + 1
            let digest = line.id.withBytes { XXH64.hash($0) }
            if prior.count > 0, prior.contains(digest) {
                repeated = SnapshotRejection(.repeatedID,
                                             "line \(line.number) of \(path) has id \"\(line.id.text)\", which may repeat an id "
                                                 + "before the snapshot's head (line \(prior.count)); only a full read can tell")
                throw LedgerError(.damaged, path: path, "stop")
            }
            digests.append(digest)
            if line.hasRecord { kept.append((line.offset, line.length, line.digest)) }
        }

        func give(_ kept: consuming Kept) throws(LedgerError) { try handOver(kept) }
    }

    /// ``scan(after:_:tracking:_:)`` from the first line (which has nothing to reject).
    func scanWhole(_ options: Options, tracking: Bool,
                   _ body: (consuming Record) throws(LedgerError) -> Void) throws(LedgerError) -> Scanned {
        try scanWhole(options, keeping: options.filter, tracking: tracking, body)
    }

    /// ``scanWhole(_:tracking:_:)``, keeping of each line what `keeping` keeps
    /// (`foldThread`: as ``scan(after:_:keeping:tracking:foldThread:_:)`` says).
    func scanWhole<Keeping: LineKeeping>(_ options: Options, keeping: Keeping, tracking: Bool,
                                         foldThread: KeptFoldThread<Keeping.Kept>? = nil,
                                         _ body: (consuming Keeping.Kept) throws(LedgerError) -> Void) throws(LedgerError) -> Scanned {
        switch try scan(after: nil, options, keeping: keeping, tracking: tracking, foldThread: foldThread, body) {
        case .success(let read): return read
        case .failure(let why): throw LedgerError(.io, path: path, "a full read refused to start: \(why)")
        }
    }

    /// The bytes of `lines` (each followed by its LF), read again from the
    /// open log; each must still hash to the digest it was checked with.
    private func readLines(_ lines: [(offset: Int, length: Int, digest: SHA256.Digest)], fd: CInt) throws(LedgerError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(lines.reduce(0) { $0 + $1.length + 1 })
        for line in lines {
            var bytes = [UInt8](repeating: 0, count: line.length + 1)
            let n = try readFully(fd, into: &bytes, at: line.offset)
            guard n == bytes.count, bytes[line.length] == 0x0A,
                  bytes.withUnsafeBytes({ LineDigest.of(UnsafeRawBufferPointer(rebasing: $0[..<line.length])) }) == line.digest else {
                throw LedgerError(.damaged, path: path, "the line at byte \(line.offset) changed while the log was being read: "
                                      + "the log was rewritten; run verify")
            }
            out.append(contentsOf: bytes)
        }
        return out
    }

    /// Why `resumePoint` does not describe the open file, or nil when it does.
    private func mismatch(_ resumePoint: ResumePoint, fd: CInt, status: FileStatus) throws(LedgerError) -> SnapshotRejection? {
        let file = FileIdentity(device: status.device, inode: status.inode)
        guard file == resumePoint.file else {
            return SnapshotRejection(.otherFile, "\(path) is not the file the snapshot was made from (it is \(file); "
                                     + "the snapshot's was \(resumePoint.file)): the log was replaced, restored or copied")
        }
        let offset = resumePoint.offset
        guard status.size >= offset else {
            return SnapshotRejection(.truncated, "\(path) is \(status.size) bytes, shorter than the \(offset) bytes "
                                     + "the snapshot covers (up to line \(resumePoint.head.seq)): the log was truncated")
        }
        guard resumePoint.head.seq > 0 else { return nil }   // an empty log's resumePoint is at byte 0

        // The line that ends at `offset`: at most 1 MiB, its LF, and the LF before it.
        let lineFeed: UInt8 = 0x0A
        var window = min(offset, 1 << 16)
        while true {
            let from = offset - window
            var bytes = [UInt8](repeating: 0, count: window)
            let n = try readFully(fd, into: &bytes, at: from)
            guard n == window else {
                return SnapshotRejection(.truncated, "\(path) became shorter than the \(offset) bytes the snapshot covers while it was read")
            }
            guard bytes[window - 1] == lineFeed else {
                return SnapshotRejection(.headMismatch, "no line of \(path) ends at byte \(offset), where the snapshot's head "
                                         + "(line \(resumePoint.head.seq)) ended: the log was edited or rewritten")
            }
            let before = bytes[..<(window - 1)].lastIndex(of: lineFeed)
            if before == nil, from > 0 {
                guard window < LineCodec.maxLineLength + 2, window < offset else {
                    return SnapshotRejection(.headMismatch, "the line of \(path) that ends at byte \(offset) is longer than "
                                             + "\(LineCodec.maxLineLength) bytes, so it is not the snapshot's head (line \(resumePoint.head.seq))")
                }
                window = min(offset, LineCodec.maxLineLength + 2)
                continue
            }
            let line = bytes[((before ?? -1) + 1)..<(window - 1)]
            let digest = line.withUnsafeBytes { RedactedLine.chainDigest($0) }
            guard digest == resumePoint.head.sha256 else {
                return SnapshotRejection(.headMismatch, "the line of \(path) that ends at byte \(offset) hashes to \(digest.hex), "
                                         + "not to the snapshot's head \(resumePoint.head): the log was edited or rewritten at or before line \(resumePoint.head.seq)")
            }
            return nil
        }
    }

    /// Reads up to `bytes.count` bytes at `offset`; fewer only at the end of the file.
    private func readFully(_ fd: CInt, into bytes: inout [UInt8], at offset: Int) throws(LedgerError) -> Int {
        do { return try system.readFully(fd, into: &bytes, at: offset) } catch {
            throw LedgerError(error, path: path, doing: "reading at byte \(offset)")
        }
    }
}
