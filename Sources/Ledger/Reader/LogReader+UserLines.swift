import Events

/// A learner's own lines, for handing them their data (`export --user`).
extension LogReader {
    /// What ``lines(of:)`` found.
    public struct UserLines: Sendable {
        /// The learner's lines, byte for byte as in the log, each ended by its LF, in log order.
        public var bytes: [UInt8]
        /// How many lines.
        public var count: Int
        /// Their seqs, in order (for a receipt of each, ``LogTree/receipts(seqs:origin:signer:)``).
        public var seqs: [Int]
        /// The records a read of `user` hands over (``LogReader/Options/user``),
        /// as `state --user` folds them: the learner's, and newer-version lines
        /// whose user cannot be read (whose bytes are not in ``bytes``).
        public var records: [Record]
        /// The whole log's summary (its head, redacted lines, torn tail).
        public var summary: LogSummary
    }

    /// Every line of `user` (users compared by their UTF-8 bytes, exactly),
    /// after checking the whole log as `verify` does: a damaged log throws
    /// `.damaged` with verify's message, and nothing is returned.
    ///
    /// The bytes are read again from the same open file after the check and
    /// must still hash to what was checked, so what is returned is what was
    /// verified. Redaction stubs belong to no one and are never returned;
    /// newer-version lines are returned when their `user` is `user`.
    public func lines(of user: String) throws(LedgerError) -> UserLines {
        var records: [Record] = []
        let read = try scanWhole(Options(user: user), tracking: true) { records.append($0) }
        // The reader also keeps newer-version lines whose user it cannot read: not this learner's.
        var bytes: [UInt8] = []
        var seqs: [Int] = []
        var start = 0
        for record in records {
            guard let lf = read.keptLines[start...].firstIndex(of: 0x0A) else { break }
            if CodePoint.equal(record.user, user) {
                bytes.append(contentsOf: read.keptLines[start...lf])
                seqs.append(record.seq)
            }
            start = lf + 1
        }
        return UserLines(bytes: bytes, count: seqs.count, seqs: seqs, records: records, summary: read.summary)
    }
}
