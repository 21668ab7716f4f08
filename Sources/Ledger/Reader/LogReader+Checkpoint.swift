import Events

/// Reading only what was appended since a checkpoint.
extension LogReader {
    /// Calls `body` with the records after `checkpoint` — or with every record
    /// when `checkpoint` is nil — checking each line as a full
    /// ``forEachRecord(progress:_:)`` does, with the chain going on from the
    /// checkpoint's head; returns where it stopped, to resume from next time.
    ///
    /// Before any record is read, the checkpoint must still describe this
    /// file: the same file (device and inode), at least `offset` bytes long,
    /// and the line that ends at `offset` hashes to the checkpoint's head.
    /// Otherwise the result is a ``SnapshotRejection`` and `body` has seen
    /// nothing. Then every line after it is checked (format, `seq`, `prev`,
    /// unique ids): damage throws `.damaged` with `verify`'s message, exactly
    /// as a full read would (line numbers count from the start of the file).
    /// A new line whose id may repeat an id from before the checkpoint is also
    /// a rejection (``SnapshotRejection/Reason/repeatedID``), found while
    /// reading: `body` has then seen some records; discard what it built.
    ///
    /// On any rejection, start again from nothing and read with a nil checkpoint.
    ///
    /// The lines before the checkpoint are not read again: see docs/operations.md
    /// ("Snapshots") for what a resumed read does not re-check.
    public func forEachRecord(after checkpoint: LogCheckpoint?,
                              progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
                              _ body: (Record) throws(LedgerError) -> Void)
        throws(LedgerError) -> Result<CheckpointedRead, SnapshotRejection>
    {
        try withOpenLog { (fd, status) throws(LedgerError) -> Result<CheckpointedRead, SnapshotRejection> in
            let file = FileIdentity(device: status.device, inode: status.inode)
            var chain = ReadChain(ids: IDFingerprints(lines: earlierLines(fd)))
            var start = 0
            var prior = IDDigests()
            let headSeq = checkpoint?.head.seq ?? 0
            if let checkpoint {
                if let rejection = try mismatch(checkpoint, fd: fd, status: status) { return .failure(rejection) }
                chain = ReadChain(resumingAfter: checkpoint.head, newerVersionLines: checkpoint.newerVersionLines,
                                  ids: IDFingerprints(firstSeq: checkpoint.head.seq + 1, lines: earlierLines(fd)))
                start = checkpoint.offset
                prior = checkpoint.ids
            }
            var end = start
            var lines = 0
            var repeated: SnapshotRejection? = nil
            // The digests the next checkpoint keeps, of the ids read now.
            var digests: [UInt64] = []
            let tail: TornTail?
            do throws(LedgerError) {
                tail = try pipeline(fd, keeping: .all).run(from: start, to: status.size, firstLine: chain.count + 1,
                                                           ahead: { chain.prefetch($0) }, { (line) throws(LedgerError) in
                    if let problem = try chain.accept(line) { throw LedgerError(damaged: problem, path: path) }
                    let digest = line.id.withBytes { XXH64.hash($0) }
                    if prior.count > 0, prior.contains(digest) {
                        repeated = SnapshotRejection(.repeatedID,
                                                     "line \(line.number) of \(path) has id \"\(line.id.text)\", which may repeat an id "
                                                         + "before the snapshot's head (line \(headSeq)); only a full read can tell")
                        throw LedgerError(.damaged, path: path, "stop")
                    }
                    digests.append(digest)
                    lines += 1
                    end = line.offset + line.length + 1
                }, keep: { (record) throws(LedgerError) in
                    try body(record)
                    progress?(end, status.size)
                })
            } catch {
                if let repeated { return .failure(repeated) }
                throw error
            }
            let ids = prior.adding(digests)
            let reached = LogCheckpoint(file: file, offset: end, head: chain.head,
                                        newerVersionLines: chain.newerVersionLines, ids: ids)
            return .success(CheckpointedRead(summary: chain.summary(tornTail: tail), checkpoint: reached,
                                             resumed: checkpoint != nil, linesRead: lines))
        }
    }

    /// Why `checkpoint` does not describe the open file, or nil when it does.
    private func mismatch(_ checkpoint: LogCheckpoint, fd: CInt, status: FileStatus) throws(LedgerError) -> SnapshotRejection? {
        let file = FileIdentity(device: status.device, inode: status.inode)
        guard file == checkpoint.file else {
            return SnapshotRejection(.otherFile, "\(path) is not the file the snapshot was made from (it is \(file); "
                                     + "the snapshot's was \(checkpoint.file)): the log was replaced, restored or copied")
        }
        let offset = checkpoint.offset
        guard status.size >= offset else {
            return SnapshotRejection(.truncated, "\(path) is \(status.size) bytes, shorter than the \(offset) bytes "
                                     + "the snapshot covers (up to line \(checkpoint.head.seq)): the log was truncated")
        }
        guard checkpoint.head.seq > 0 else { return nil }   // an empty log's checkpoint is at byte 0

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
                                         + "(line \(checkpoint.head.seq)) ended: the log was edited or rewritten")
            }
            let before = bytes[..<(window - 1)].lastIndex(of: lineFeed)
            if before == nil, from > 0 {
                guard window < LineCodec.maxLineLength + 2, window < offset else {
                    return SnapshotRejection(.headMismatch, "the line of \(path) that ends at byte \(offset) is longer than "
                                             + "\(LineCodec.maxLineLength) bytes, so it is not the snapshot's head (line \(checkpoint.head.seq))")
                }
                window = min(offset, LineCodec.maxLineLength + 2)
                continue
            }
            let line = bytes[((before ?? -1) + 1)..<(window - 1)]
            let digest = line.withUnsafeBytes { SHA256.hash($0) }
            guard digest == checkpoint.head.sha256 else {
                return SnapshotRejection(.headMismatch, "the line of \(path) that ends at byte \(offset) hashes to \(digest.hex), "
                                         + "not to the snapshot's head \(checkpoint.head): the log was edited or rewritten at or before line \(checkpoint.head.seq)")
            }
            return nil
        }
    }

    /// Reads up to `bytes.count` bytes at `offset`; fewer only at the end of the file.
    private func readFully(_ fd: CInt, into bytes: inout [UInt8], at offset: Int) throws(LedgerError) -> Int {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) -> Int in
                    try system.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + done)
                }
            }
            let n: Int
            do { n = try result.get() } catch { throw LedgerError(error, path: path, doing: "reading at byte \(offset + done)") }
            if n == 0 { break }
            done += n
        }
        return done
    }
}
