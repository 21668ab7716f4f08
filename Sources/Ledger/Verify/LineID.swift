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
    @inline(__always)
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard assign(bytes) else { return nil }
    }

    /// Becomes these bytes (the rest zero), in place, and returns true; or,
    /// when there are more than 64, stays as it is and returns false.
    /// Read eight bytes at a time, never outside `bytes`, and written as the
    /// eight words at once: a copy loop here became a `memcpy` call per id.
    @inline(__always)
    mutating func assign(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        guard n <= LineID.capacity else { return false }
        count = n
        guard n > 0, let from = bytes.baseAddress else {
            words = (0, 0, 0, 0, 0, 0, 0, 0)
            return true
        }
        let whole = n &>> 3, left = n & 7
        // The bytes after the whole words, then zeros, in memory order.
        var tail: UInt64 = 0
        if left > 0 {
            if n >= 8 {
                // The last eight bytes, shifted so that only the `left` not in a whole word remain.
                tail = UInt64(littleEndian: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)) &>> UInt64(8 &* (8 &- left))
            } else {
                for k in 0..<left { tail |= UInt64(from.load(fromByteOffset: k, as: UInt8.self)) &<< UInt64(8 &* k) }
            }
            tail = tail.littleEndian
        }
        @inline(__always) func word(_ k: Int) -> UInt64 {
            if k < whole { return from.loadUnaligned(fromByteOffset: k &* 8, as: UInt64.self) }
            return k == whole ? tail : 0
        }
        words = (word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7))
        return true
    }

    /// An id's UTF-8; nil when it is longer than 64 bytes.
    init?(_ text: String) {
        var copy = text
        guard let id = copy.withUTF8({ LineID(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = id
    }

    /// Calls `body` with all 64 bytes of storage: the id's ``count`` bytes, then zeros.
    @inline(__always)
    func withPaddedBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeBytes(of: words) { body($0) }
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
