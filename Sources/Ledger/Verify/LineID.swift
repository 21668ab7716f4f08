/// A valid line's `id`, held inline: 1 to 64 ASCII characters
/// (`A-Z a-z 0-9 . _ : -`, as the format requires), so a ``CheckedLine``
/// holds no string and copies as plain bytes.
struct LineID: Sendable, Equatable {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// How many bytes.
    private(set) var count = 0

    /// The most bytes an id can have.
    static let capacity = 64

    /// No id (a line that does not decode).
    init() {}

    /// These bytes (the rest zero); nil when there are more than 64.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= LineID.capacity else { return nil }
        count = bytes.count
        withUnsafeMutableBytes(of: &words) { to in
            if let from = bytes.baseAddress, let base = to.baseAddress { base.copyMemory(from: from, byteCount: bytes.count) }
        }
    }

    /// An id's UTF-8; nil when it is longer than 64 bytes.
    init?(_ text: String) {
        var copy = text
        guard let id = copy.withUTF8({ LineID(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = id
    }

    /// Calls `body` with the bytes.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// The id as a string.
    var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The same bytes (the unused ones are always zero).
    static func == (a: LineID, b: LineID) -> Bool {
        a.count == b.count && a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2
            && a.words.3 == b.words.3 && a.words.4 == b.words.4 && a.words.5 == b.words.5
            && a.words.6 == b.words.6 && a.words.7 == b.words.7
    }
}
