/// A log's head: the `seq` of a line and the SHA-256 of its bytes.
///
/// An auditor who keeps a head can later check that nothing up to it changed
/// (`verify --expect-head SEQ:SHA256`). An empty log's head is `0:000…0`.
public struct Head: Sendable, Hashable, CustomStringConvertible {
    /// The line's `seq` (0 for an empty log).
    public var seq: Int
    /// The SHA-256 of the line's bytes without its LF (zeros for an empty log).
    public var sha256: SHA256.Digest

    /// Makes a head.
    public init(seq: Int, sha256: SHA256.Digest) { self.seq = seq; self.sha256 = sha256 }

    /// The head of an empty log: seq 0, 64 zeros.
    public static let empty = Head(seq: 0, sha256: .zero)

    /// Parses `SEQ:SHA256` as `description` prints it (SEQ all digits; 64
    /// hex digits); nil otherwise. Seq 0 is taken only with 64 zeros, the
    /// empty log's head (`Head.empty`): no line has seq 0, so a seq 0 with any
    /// other hash names no log's head and is refused.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let seq = Int(parts[0]), let digest = SHA256.Digest(hex: parts[1]), seq >= 1 || digest == .zero
        else { return nil }
        self.init(seq: seq, sha256: digest)
    }

    /// `SEQ:SHA256`.
    public var description: String { "\(seq):\(sha256.hex)" }
}
