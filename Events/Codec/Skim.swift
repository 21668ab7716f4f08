/// Walks over the top-level members of a line without validating it, to find
/// one member's string value cheaply: the event type named after a `data`
/// written before its `type` (``typeAhead(afterValueAt:)``).
///
/// On a line that is valid JSON it finds exactly what a parser finds: strings
/// are skipped escape by escape, so a quote, a brace or the member's name
/// inside a string, or nested in `data`, is never taken for structure. On
/// anything else it may answer anything but never reads outside the buffer,
/// so its answers are hints: the decoder checks them, or the caller decodes.
struct Skim {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

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
