/// Walks over the top-level members of a line without validating it, to find
/// one member's string value cheaply.
///
/// On a line that is valid JSON it finds exactly what a parser finds: strings
/// are skipped escape by escape, so a quote, a brace or the member's name
/// inside a string, or nested in `data`, is never taken for structure. On
/// anything else it may answer anything but never reads outside the buffer,
/// so its answers are hints: the decoder checks them, or the caller decodes.
struct Skim {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The content (between the quotes) of the top-level member `name` of the
    /// object at the start of the line, when that member is written without
    /// escapes in its name and is a string without escapes; nil otherwise.
    func topLevelString(_ name: StaticString) -> Range<Int>? {
        var k = whitespaceEnd(0)
        guard k < bytes.count, bytes[k] == UInt8(ascii: "{") else { return nil }
        k = whitespaceEnd(k + 1)
        guard k < bytes.count, bytes[k] != UInt8(ascii: "}") else { return nil }
        return member(name, from: k)
    }

    /// The content of the top-level `user` string of a line that begins as the
    /// writer begins every line: `{"v":` digits `,"seq":` digits `,"id":"`
    /// string `","at":"` string `","user":"` string, no whitespace, no escapes
    /// (each string's end found sixteen bytes at a time); nil for any other
    /// beginning. Where it answers, ``topLevelString(_:)`` answers the same
    /// (these bytes are one case of what it walks), at a tenth of the cost.
    func writersUser() -> Range<Int>? {
        var k = 0
        guard token(#"{"v":"#, &k), digits(&k), token(#","seq":"#, &k), digits(&k),
              token(#","id":""#, &k), plainString(&k), token(#","at":""#, &k), plainString(&k),
              token(#","user":""#, &k) else { return nil }
        let start = k
        guard plainString(&k) else { return nil }
        return start..<(k - 1)
    }

    /// Whether `text` (4 to 16 bytes) is at `k`; moves `k` past it. Compared
    /// as two words that overlap in the middle, not byte by byte.
    @inline(__always) private func token(_ text: StaticString, _ k: inout Int) -> Bool {
        let n = text.utf8CodeUnitCount
        guard k + n <= bytes.count else { return false }
        let t = UnsafeRawPointer(text.utf8Start)
        @inline(__always) func same<Word: FixedWidthInteger>(_: Word.Type) -> Bool {
            let w = MemoryLayout<Word>.size
            return bytes.loadUnaligned(fromByteOffset: k, as: Word.self) == t.loadUnaligned(as: Word.self)
                && bytes.loadUnaligned(fromByteOffset: k + n - w, as: Word.self) == t.loadUnaligned(fromByteOffset: n - w, as: Word.self)
        }
        guard n >= 8 ? same(UInt64.self) : same(UInt32.self) else { return false }
        k += n
        return true
    }

    /// Whether one or more ASCII digits are at `k`; moves `k` past them.
    private func digits(_ k: inout Int) -> Bool {
        let start = k
        while k < bytes.count, bytes[k] &- 0x30 < 10 { k += 1 }
        return k > start
    }

    /// Whether a string's content without a backslash starts at `k` (its
    /// opening quote before); moves `k` past its closing quote.
    private func plainString(_ k: inout Int) -> Bool {
        let end = ByteSearch.firstQuoteOrBackslash(bytes, from: k)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return false }
        k = end + 1
        return true
    }

    /// The event type named by a top-level `type` member written after the value at `k`.
    func typeAhead(afterValueAt k: Int) -> EventType? {
        guard let end = valueEnd(k) else { return nil }
        var p = whitespaceEnd(end)
        guard p < bytes.count, bytes[p] == UInt8(ascii: ",") else { return nil }
        p = whitespaceEnd(p + 1)
        guard let range = member("type", from: p) else { return nil }
        return EventType(utf8: UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    /// Walks members from the name at `k` to the end of the object.
    private func member(_ name: StaticString, from start: Int) -> Range<Int>? {
        var k = start
        while k < bytes.count, bytes[k] == UInt8(ascii: "\"") {
            guard let (nameEnd, nameEscaped) = stringEnd(k) else { return nil }
            let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[(k + 1)..<(nameEnd - 1)])
            k = whitespaceEnd(nameEnd)
            guard k < bytes.count, bytes[k] == UInt8(ascii: ":") else { return nil }
            k = whitespaceEnd(k + 1)
            if !nameEscaped, nameBytes.equals(name) {
                guard k < bytes.count, bytes[k] == UInt8(ascii: "\""),
                      let (valueEnd, valueEscaped) = stringEnd(k), !valueEscaped else { return nil }
                return (k + 1)..<(valueEnd - 1)
            }
            guard let end = valueEnd(k) else { return nil }
            k = whitespaceEnd(end)
            guard k < bytes.count, bytes[k] == UInt8(ascii: ",") else { return nil }
            k = whitespaceEnd(k + 1)
        }
        return nil
    }

    private func whitespaceEnd(_ start: Int) -> Int {
        var k = start
        while k < bytes.count, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
        return k
    }

    /// Past the closing quote of the string whose opening quote is at `k`, and whether it has escapes.
    private func stringEnd(_ start: Int) -> (Int, Bool)? {
        var k = start + 1
        var escaped = false
        while true {
            // Sixteen bytes at a time to the next quote or backslash.
            k = ByteSearch.firstQuoteOrBackslash(bytes, from: k)
            guard k < bytes.count else { return nil }
            if bytes[k] == UInt8(ascii: "\"") { return (k + 1, escaped) }
            escaped = true
            k += 2
        }
    }

    /// Past the value at `k`.
    private func valueEnd(_ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(start)?.0
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var k = start
            while k < bytes.count {
                switch bytes[k] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(k) else { return nil }
                    k = end.0
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return k + 1 }
                default:
                    break
                }
                k += 1
            }
            return nil
        default:
            var k = start
            while k < bytes.count {
                switch bytes[k] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09: return k
                default: k += 1
                }
            }
            return k
        }
    }
}
