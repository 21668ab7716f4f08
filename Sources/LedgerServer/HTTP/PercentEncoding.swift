/// Percent-decoding of URL parts (RFC 3986): a learner's id in a path
/// (`/`, spaces and non-ASCII included), a query's names and values.
enum PercentEncoding {
    /// The text `part` stands for: every `%XX` decoded; the bytes must be
    /// UTF-8. With `plusIsSpace` (a query), `+` is a space. Nil for a bad
    /// escape or bytes that are not UTF-8.
    static func decode<S: StringProtocol>(_ part: S, plusIsSpace: Bool = false) -> String? {
        decode(part.utf8, plusIsSpace: plusIsSpace)
    }

    /// ``decode(_:plusIsSpace:)`` of UTF-8 bytes.
    static func decode<Bytes: Collection<UInt8>>(_ part: Bytes, plusIsSpace: Bool = false) -> String? {
        if !part.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(validating: part, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.count)
        var it = Array(part)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let hi = hex(it[it.startIndex]), let lo = hex(it[it.startIndex + 1]) else { return nil }
                bytes.append(hi << 4 | lo)
                it = it.dropFirst(2)
            } else if plusIsSpace, b == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
