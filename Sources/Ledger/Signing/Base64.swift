/// The standard base64 of RFC 4648, section 4 (`A-Z a-z 0-9 + /`, `=`
/// padding), as signed notes, keys, checkpoints and proofs spell bytes.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of each byte of the alphabet, 0xFF for any other byte.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// `bytes` in base64, padded.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i < input.count {
            let n = min(3, input.count - i)
            let b0 = UInt32(input[i]), b1 = n > 1 ? UInt32(input[i + 1]) : 0, b2 = n > 2 ? UInt32(input[i + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            for k in 0..<4 {
                out.append(k <= n ? alphabet[Int(triple >> UInt32(18 - 6 * k) & 0x3F)] : UInt8(ascii: "="))
            }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` spells, or nil unless it is canonical padded base64:
    /// a multiple of 4 characters of the alphabet, `=` only as the padding at
    /// the end, and the unused bits of the last character zero (so each byte
    /// string has exactly one spelling, and a changed character is never
    /// read as the same bytes).
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var i = 0
        while i < chars.count {
            let last = i + 4 == chars.count
            let padding = last ? (chars[i + 3] == UInt8(ascii: "=") ? (chars[i + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
            var quad: UInt32 = 0
            for k in 0..<4 {
                let value: UInt8 = k >= 4 - padding ? 0 : values[Int(chars[i + k])]
                guard value != 0xFF else { return nil }
                quad = quad << 6 | UInt32(value)
            }
            // The bits padding leaves unused must be zero.
            if padding == 1, quad & 0xFF != 0 { return nil }
            if padding == 2, quad & 0xFFFF != 0 { return nil }
            out.append(UInt8(truncatingIfNeeded: quad >> 16))
            if padding < 2 { out.append(UInt8(truncatingIfNeeded: quad >> 8)) }
            if padding < 1 { out.append(UInt8(truncatingIfNeeded: quad)) }
            i += 4
        }
        return out
    }
}
