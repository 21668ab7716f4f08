/// The member names and enumeration values the decoder knows, matched as bytes.
///
/// Matching the unescaped UTF-8 bytes is exactly `String` equality here: a
/// string canonically equivalent to an ASCII one differs from it only by
/// U+212A, U+037E or U+1FEF (which stand for `K`, `;` and `` ` ``), and no name
/// or value of the format holds those characters.

/// The bytes of a name, to match against the known ones.
protocol NameBytes {
    var count: Int { get }
    subscript(_ k: Int) -> UInt8 { get }
    /// Whether the bytes are exactly the `n` bytes at `p`.
    func equals(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool
    /// Whether the bytes are exactly `spelling`'s.
    func equals(_ spelling: Spelling) -> Bool
}

extension NameBytes {
    /// Whether the bytes are exactly `text`'s UTF-8.
    @inline(__always) func equals(_ text: StaticString) -> Bool { equals(text.utf8Start, text.utf8CodeUnitCount) }

    /// Whether the bytes are exactly `bytes`.
    @inline(__always) func equals(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in b.baseAddress.map { equals($0, b.count) } ?? (count == 0) }
    }
}

extension UnsafeRawBufferPointer: NameBytes {
    /// Whether these bytes are exactly `spelling`'s.
    @inline(__always) func equals(_ spelling: Spelling) -> Bool {
        guard count == spelling.count else { return false }
        for k in 0..<count where self[k] != spelling[k] { return false }
        return true
    }

    /// Whether these bytes are exactly the `n` bytes at `p`.
    @inline(__always) func equals(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard count == n else { return false }
        for k in 0..<n where self[k] != p[k] { return false }
        return true
    }
}

/// A string's content in the line, where the bytes after it may be read too:
/// names are compared eight bytes at a time.
struct LineSlice: NameBytes {
    let line: UnsafeRawBufferPointer
    let start: Int
    let count: Int

    @inline(__always) subscript(_ k: Int) -> UInt8 { line[start &+ k] }

    @inline(__always) func equals(_ spelling: Spelling) -> Bool {
        guard count == spelling.count else { return false }
        if line.count &- start >= 24 { return spelling.matches(line, at: start) }
        for k in 0..<count where self[k] != spelling[k] { return false }
        return true
    }

    @inline(__always) func equals(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard count == n else { return false }
        let readable = line.count &- start
        if n <= 8, readable >= 8 {
            let mask: UInt64 = n == 8 ? ~0 : (1 &<< UInt64(8 &* n)) &- 1
            return word(0) & mask == LineSlice.word(p, n)
        }
        if n <= 16, readable >= 16 {
            let mask: UInt64 = n == 16 ? ~0 : (1 &<< UInt64(8 &* (n &- 8))) &- 1
            return word(0) == LineSlice.word(p, 8) && word(8) & mask == LineSlice.word(p + 8, n &- 8)
        }
        for k in 0..<n where self[k] != p[k] { return false }
        return true
    }

    @inline(__always) private func word(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: line.loadUnaligned(fromByteOffset: start &+ offset, as: UInt64.self))
    }

    /// The first `min(n, 8)` bytes at `p` as a little-endian word (constant for a literal).
    @inline(__always) private static func word(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var w: UInt64 = 0
        for k in 0..<min(n, 8) { w |= UInt64(p[k]) &<< UInt64(8 &* k) }
        return w
    }
}

extension JSONScanner {
    /// Matches a name capture on its unescaped bytes: `match` in the line, or
    /// (with escapes) `slow` on the unescaped copy.
    @inline(__always) func identify<T>(_ c: Capture, _ match: (LineSlice) -> T?, _ slow: (UnsafeRawBufferPointer) -> T?) -> T? {
        guard c.flag else { return match(LineSlice(line: bytes, start: c.start, count: c.end - c.start)) }
        return unescapedBytes(c).withUnsafeBytes(slow)
    }
}

/// The members of the envelope, in the format's order.
enum EnvelopeMember: Int {
    case v, seq, id, at, user, device, type, data, prev

    // Each case compares with its own literal, so the comparison is with constants.
    @inline(__always) init?<B: NameBytes>(_ b: B) {
        let m: EnvelopeMember?
        switch b.count {
        case 1: m = b.equals("v") ? .v : nil
        case 2: m = b.equals("id") ? .id : b.equals("at") ? .at : nil
        case 3: m = b.equals("seq") ? .seq : nil
        case 4:
            switch b[0] {
            case UInt8(ascii: "u"): m = b.equals("user") ? .user : nil
            case UInt8(ascii: "t"): m = b.equals("type") ? .type : nil
            case UInt8(ascii: "d"): m = b.equals("data") ? .data : nil
            default: m = b.equals("prev") ? .prev : nil
            }
        case 6: m = b.equals("device") ? .device : nil
        default: m = nil
        }
        guard let m else { return nil }
        self = m
    }

    var name: String { WriterOrder.names[rawValue] }
}

/// The case of a string enumeration (an event type, a `data` member's
/// value) whose raw value is exactly these bytes: its raw values are compared
/// as UTF-8, which is `String` equality for the format's ASCII names (above).
@inline(__always) func caseNamed<E: RawRepresentable & CaseIterable, B: NameBytes>(_ b: B, in _: E.Type) -> E? where E.RawValue == String {
    for e in E.allCases {
        var name = e.rawValue
        if name.utf8.count == b.count, name.withUTF8({ u in u.baseAddress.map { b.equals($0, u.count) } ?? (b.count == 0) }) { return e }
    }
    return nil
}

extension EventType {
    /// The types' names by their length in bytes (matched once or twice a line).
    private static let byLength: [[(type: EventType, name: Spelling)]] = (0...24).map { n in
        allCases.filter { $0.rawValue.utf8.count == n }.map { ($0, Spelling($0.rawValue)) }
    }

    /// The type whose name is exactly these bytes.
    @inline(__always) init?<B: NameBytes>(utf8 b: B) {
        guard b.count < EventType.byLength.count else { return nil }
        for candidate in EventType.byLength[b.count] where b.equals(candidate.name) {
            self = candidate.type
            return
        }
        return nil
    }
}
