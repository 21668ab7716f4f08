/// Percent-encoding of URL parts (RFC 3986, section 2.1): a learner's id in
/// a path (`/`, spaces and non-ASCII included), a query's names and values.
/// The client encodes, the server decodes; both go through here.
package enum PercentEncoding {
    /// `text`'s UTF-8 bytes with every byte but the unreserved ones
    /// (`A-Z a-z 0-9 - . _ ~`, RFC 3986 section 2.3) as `%XX`, upper-case hex:
    /// `café` (U+00E9) is `caf%C3%A9`, its decomposed spelling (`e` and
    /// U+0301) `cafe%CC%81`. The bytes are kept as they are, never normalized.
    package static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            if isUnreserved(b) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hexDigit(b >> 4), hexDigit(b & 0xF)]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text `part` stands for: every `%XX` decoded; the bytes must be
    /// UTF-8. With `plusIsSpace` (a query), `+` is a space. Nil for a bad
    /// escape or bytes that are not UTF-8.
    package static func decode<S: StringProtocol>(_ part: S, plusIsSpace: Bool = false) -> String? {
        decode(part.utf8, plusIsSpace: plusIsSpace)
    }

    /// ``decode(_:plusIsSpace:)`` of UTF-8 bytes.
    package static func decode<Bytes: Collection<UInt8>>(_ part: Bytes, plusIsSpace: Bool = false) -> String? {
        if !part.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return utf8(part)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.count)
        var it = Array(part)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let hi = hexValue(it[it.startIndex]), let lo = hexValue(it[it.startIndex + 1]) else { return nil }
                bytes.append(hi << 4 | lo)
                it = it.dropFirst(2)
            } else if plusIsSpace, b == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else {
                bytes.append(b)
            }
        }
        return utf8(bytes)
    }

    /// The text of `bytes` when they are UTF-8 (nil otherwise): decoded, and
    /// kept only when it encodes back to the same bytes (a bad sequence would
    /// have become U+FFFD). `String(validating:as:)` would need macOS 15.
    private static func utf8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    private static func isUnreserved(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
