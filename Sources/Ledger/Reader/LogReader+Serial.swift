import Events

/// The checked read on the calling thread alone, for small logs read many at
/// a time (a ledger directory's learner logs, one per core).
///
/// The same checks as ``LogReader/read(_:_:)`` with the same functions
/// (``LineScanner`` for the lines and the torn tail, `ScannedLine`'s checks
/// and the decoder for each line, ``Chain/accept(_:)`` for seq, prev and ids);
/// only the scheduling differs: no line is copied into a chunk or handed to
/// another thread, which for a log of a few hundred kilobytes cost more than
/// the parallel decoding saved (each core already reads a log of its own).
extension LogReader {
    /// One line accepted by ``readSerially(records:_:)``: valid by itself and in the chain.
    struct AcceptedLine: ~Copyable {
        /// The 1-based line number.
        let number: Int
        /// The line's bytes (valid only during the callback).
        let bytes: UnsafeRawBufferPointer
        /// Where its `user` is; nil on a redaction stub or a newer-version line without one.
        let userKey: LineCodec.RecordKeys.Text?
        /// Its digest as the chain uses it (a stub's `redacted`): the Merkle tree's leaf data.
        let digest: SHA256.Digest

        /// Whether the line's `user` is a string (not on a stub, nor on a
        /// newer-version line without one) whose UTF-8 bytes `test` accepts;
        /// nil when it has no such user.
        func user(_ test: (UnsafeRawBufferPointer) -> Bool) -> Bool? {
            guard let userKey else { return nil }
            return LineCodec.RecordKeys.withBytes(userKey, in: bytes, test)
        }

        /// The line's `user` as text; nil when it has none (see ``user(_:)``).
        var userText: String? { userKey.map { $0.string(in: bytes) } }
    }

    /// Reads the whole log on the calling thread, checking every line as
    /// `verify` does, and calls `body` with each line once it is accepted,
    /// with its record when `records` is true (nil for a stub), lent for the
    /// call (a fold reads it; no copy is made to hand it over): made but for
    /// the envelope's strings (`id`, `at`'s text, `user`, `device`, `prev`
    /// are empty; see `LineCodec.checkRecordKeepingData`). Throws a
    /// `.damaged` error (`verify`'s message) at the first problem.
    func readSerially(records: Bool,
                      _ body: (borrowing AcceptedLine, borrowing Record?) throws(LedgerError) -> Void) throws(LedgerError) -> LogSummary {
        try withOpenLog { (fd, status) throws(LedgerError) in
            var chain = ReadChain(ids: IDFingerprints(lines: earlierLines(fd), expectedBytes: status.size))
            let scanner = LineScanner(system: system, fd: fd, path: path, chunkSize: chunkSize)
            let hasher = idHasher, path = self.path
            let tail = try scanner.scan(from: 0, to: status.size, firstLine: 1) { (line) throws(LedgerError) in
                let (checked, user, record) = line.checkedKeys(data: records, hasher: hasher)
                if let problem = try chain.accept(checked) { throw LedgerError(damaged: problem, path: path) }
                try body(AcceptedLine(number: line.number, bytes: line.bytes, userKey: user, digest: checked.digest), record)
            }
            return chain.summary(tornTail: tail)
        }
    }
}
