/// A log's tree head as C2SP `tlog-checkpoint` writes it: the note text a
/// ``SignedCheckpoint`` signs.
///
/// ```
/// school.example/progress
/// 6392
/// 3Bm7tFQQyQ1MfNv1hZ4p5Lx1wB5Cz3cUlZJ8qdh0yAA=
/// ```
///
/// The origin (which log), the tree size (how many of its first lines, in
/// decimal), the root of the RFC 6962 tree over them (``MerkleTree``) in
/// base64, then any extension lines (opaque, not recommended).
public struct Checkpoint: Sendable, Hashable {
    /// Which log: non-empty, no newline or control character (C2SP
    /// recommends a schema-less URL without spaces or `+`, e.g.
    /// `school.example/progress`).
    public var origin: String
    /// The tree: how many lines, and their root.
    public var head: TreeHead
    /// Extension lines (non-empty each), after the root.
    public var extensions: [String]

    /// The tree size.
    public var size: Int { head.size }
    /// The root hash.
    public var root: SHA256.Digest { head.root }

    /// A checkpoint of `origin` at `head`; refuses an origin or extension
    /// line that is empty or holds a newline or control character.
    public init(origin: String, head: TreeHead, extensions: [String] = []) throws(ReceiptError) {
        guard Self.isLine(origin) else {
            throw ReceiptError(.origin, path: origin, "an origin must be non-empty, on one line, without control characters")
        }
        for line in extensions where !Self.isLine(line) {
            throw ReceiptError(.malformed, path: origin, "an extension line must be non-empty, without newlines or control characters")
        }
        self.origin = origin; self.head = head; self.extensions = extensions
    }

    /// Reads a checkpoint's note text; `path` and `firstLine` (where the
    /// text starts in the file) name the place in errors.
    public init(text: String, path: String, firstLine: Int = 1) throws(ReceiptError) {
        guard text.hasSuffix("\n") else { throw ReceiptError(.malformed, path: path, line: firstLine, "a checkpoint's text ends in a newline") }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 3 else {
            throw ReceiptError(.malformed, path: path, line: firstLine, "a checkpoint has at least three lines: origin, tree size, root hash")
        }
        let digits = lines[1].utf8
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), digits.first != 0x30 || digits.count == 1,
              let size = Int(lines[1]) else {
            throw ReceiptError(.malformed, path: path, line: firstLine + 1, "the tree size \"\(lines[1])\" is not a decimal number without leading zeros")
        }
        guard let bytes = Base64.decode(lines[2]), let root = SHA256.Digest(bytes: bytes) else {
            throw ReceiptError(.malformed, path: path, line: firstLine + 2, "the root hash is not the base64 of 32 bytes")
        }
        for (k, line) in lines.enumerated().dropFirst(3) where line.isEmpty {
            throw ReceiptError(.malformed, path: path, line: firstLine + k, "an extension line is empty")
        }
        do {
            try self.init(origin: lines[0], head: TreeHead(size: size, root: root), extensions: Array(lines.dropFirst(3)))
        } catch {
            throw ReceiptError(.malformed, path: path, line: firstLine, error.message)
        }
    }

    /// The note text: origin, size, base64 root, extension lines, each ended by a newline.
    public var text: String {
        ([origin, String(size), Base64.encode(root.bytes)] + extensions).map { $0 + "\n" }.joined()
    }

    private static func isLine(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
    }
}
