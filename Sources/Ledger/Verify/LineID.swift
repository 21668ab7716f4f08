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
    /// Copied eight bytes at a time, never reading outside `bytes`.
    @inline(__always)
    mutating func assign(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        guard n <= LineID.capacity else { return false }
        words = (0, 0, 0, 0, 0, 0, 0, 0)
        count = n
        guard n > 0, let from = bytes.baseAddress else { return true }
        withUnsafeMutableBytes(of: &words) { to in
            guard let base = to.baseAddress else { return }
            var k = 0
            while k &+ 8 <= n {
                base.storeBytes(of: from.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
                k &+= 8
            }
            guard k < n else { return }
            if n >= 8 {
                // The id's last eight bytes, shifted so that only the n - k not yet copied remain (then zeros).
                let last = UInt64(littleEndian: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self))
                let rest = last >> UInt64(8 &* (8 &- (n &- k)))
                base.storeBytes(of: rest.littleEndian, toByteOffset: k, as: UInt64.self)
            } else {
                while k < n { base.storeBytes(of: from.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self); k &+= 1 }
            }
        }
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
