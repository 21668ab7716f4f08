import Events

/// The raw lines of a log: what a server sends on pull, what `export --format jsonl` prints.
extension LogReader {
    /// Calls `body` with the exact bytes (without the LF) of every line whose
    /// seq is greater than `after` (`0`: all), in order (a learner's own lines:
    /// ``lines(of:)``). The whole log is verified first: a
    /// damaged log throws `.damaged` with verify's message and nothing is
    /// handed over. Lines appended after the verification are not handed over.
    /// Returns how many lines were.
    @discardableResult
    public func rawLines(after seq: Int = 0,
                         _ body: (UnsafeRawBufferPointer) throws(LedgerError) -> Void) throws(LedgerError) -> Int {
        var count = 0
        try VerifiedLog.forEachLine(of: path) { (line) throws(LedgerError) in
            guard line.number > seq else { return }
            try body(line.bytes)
            count += 1
        }
        return count
    }
}
