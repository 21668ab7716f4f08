/// base64url without padding (RFC 4648 section 5), as JWS compact
/// serialization writes its three parts (RFC 7515 section 2).
enum Base64URL {
    /// The bytes `text` encodes; nil for a character outside `A-Z a-z 0-9 - _`,
    /// padding, a length that no encoding has (4k + 1), or unused low bits
    /// that are not zero (so every byte string has exactly one encoding).
    static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? { decode(text.utf8) }

    /// ``decode(_:)`` of the text's UTF-8 bytes.
    static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for c in text {
            guard let v = value(c) else { return nil }
            accumulator = accumulator << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // 2 or 4 bits left over must be zero; 6 means a lone character (4k + 1).
        guard bits < 6, accumulator == 0 else { return nil }
        return out
    }

    /// `bytes` as base64url without padding.
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk: UInt32 = 0
            for k in 0..<3 { chunk = chunk << 8 | UInt32(k < n ? bytes[i + k] : 0) }
            for k in 0...n { out.append(alphabet[Int(chunk >> UInt32(18 - 6 * k)) & 63]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
