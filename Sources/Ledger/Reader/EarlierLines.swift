import Events

/// Reads a line of the open log again, by its number: how ``IDFingerprints``
/// confirms that a hash it has seen twice is the same id.
struct EarlierLines {
    var system: System
    var fd: CInt
    var path: String

    /// The id of line `number`, scanning from byte `offset`, where line `first` starts.
    ///
    /// The line was read and accepted earlier in this read, so it decodes and
    /// its seq is `number`; if it no longer does, the log was rewritten while
    /// it was read, and that is the error.
    func id(ofLine number: Int, scanningFrom offset: Int, whereLine first: Int) throws(LedgerError) -> LineID {
        // A small read size: the line is at most 63 lines past `offset`.
        var scanner = LineScanner(system: system, fd: fd, path: path, chunkSize: 1 << 16)
        scanner.readLimit = 1 << 16
        var id: LineID? = nil
        var reached = false
        do {
            _ = try scanner.scan(from: offset, to: Int.max, firstLine: first) { (line) throws(LedgerError) in
                guard line.number == number else { return }
                reached = true
                if !line.isTooLong, let stub = RedactionStub.parts(line.bytes) {
                    if stub.seq == number { id = RedactedLine.key(seq: number) }
                } else if !line.isTooLong, let keys = try? LineCodec.checkRecord(line.bytes), keys.seq == number {
                    id = LineID(keys.id.string(in: line.bytes))
                }
                throw LedgerError(.damaged, path: path, "found")
            }
        } catch where reached {
            // Stopped at the line.
        }
        guard let id else {
            throw LedgerError(.damaged, path: path,
                              "line \(number) changed while the log was being read (read again, it is no longer the line "
                                  + "read before): the log was rewritten; run verify")
        }
        return id
    }
}
