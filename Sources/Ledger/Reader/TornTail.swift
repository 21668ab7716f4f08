/// Bytes after the log's last LF: an append that never completed.
///
/// They were never acknowledged. Readers ignore them with a warning; the next
/// writer moves them to a side file and truncates the log to its last LF.
public struct TornTail: Sendable, Hashable {
    /// The line number these bytes would have had.
    public var line: Int
    /// The byte offset where they start (the end of the last complete line).
    public var offset: Int
    /// How many bytes there are.
    public var length: Int

    /// Makes the description of a torn tail.
    public init(line: Int, offset: Int, length: Int) {
        self.line = line; self.offset = offset; self.length = length
    }

    /// The warning `verify` prints: `line K: torn_tail: ...`.
    public var warning: LineProblem {
        LineProblem(line: line, kind: .tornTail,
                    "\(length) byte\(length == 1 ? "" : "s") after the last LF (an append that never completed; "
                        + "ignored, and moved to a side file by the next writer)")
    }
}
