/// Writes compact JSON bytes: no insignificant whitespace, strings escaped
/// minimally (`"`, `\`, and control characters below U+0020).
package struct JSONWriter {
    /// The bytes written so far.
    package var bytes: [UInt8] = []

    /// Makes an empty writer.
    package init() { bytes.reserveCapacity(256) }

    /// Makes an empty writer with room for `capacity` bytes.
    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    package mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes a JSON string literal.
    package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { appendString($0) }
    }

    /// Writes the UTF-8 `u` as a JSON string literal: runs of bytes that need
    /// no escape are copied at once.
    private mutating func appendString(_ u: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        var k = 0
        let n = u.count
        while k < n {
            if k &+ 8 <= n {
                let word = UnsafeRawBufferPointer(u).loadUnaligned(fromByteOffset: k, as: UInt64.self)
                let mask = JSONWriter.needsEscape(word)
                if mask == 0 { k &+= 8; continue }
                k &+= mask.trailingZeroBitCount &>> 3
            }
            let c = u[k]
            guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { k &+= 1; continue }
            if k > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[start..<k])) }
            escape(c)
            k &+= 1
            start = k
        }
        if start < n { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[start..<n])) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ c: UInt8) {
        switch c {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        default:
            raw("\\u00")
            let hex: StaticString = "0123456789abcdef"
            bytes.append(hex.utf8Start[Int(c >> 4)])
            bytes.append(hex.utf8Start[Int(c & 0xF)])
        }
    }

    /// A mask with the high bit set in (at least) the lowest byte of `word`
    /// (in memory order) that is a quote, a backslash or below 0x20.
    @inline(__always) static func needsEscape(_ word: UInt64) -> UInt64 {
        let w = UInt64(littleEndian: word)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = w ^ (ones &* 0x22)
        let backslash = w ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        let isControl = (w &- ones &* 0x20) & ~w
        return (isQuote | isBackslash | isControl) & (ones &* 0x80)
    }

    package mutating func integer(_ n: Int) {
        if n >= 0, n < 10 {
            bytes.append(UInt8(truncatingIfNeeded: n) &+ 48)
            return
        }
        // Digits from the right into a 24-byte buffer (an Int has at most 20 and a sign).
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { b in
            var k = b.count
            var m = n.magnitude
            repeat {
                k -= 1
                b[k] = UInt8(truncatingIfNeeded: m % 10) &+ 48
                m /= 10
            } while m > 0
            if n < 0 { k -= 1; b[k] = UInt8(ascii: "-") }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[k...]))
        }
    }

    package mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    package mutating func value(_ v: JSONValue) {
        switch v {
        case .null: raw("null")
        case .bool(let b): bool(b)
        case .number(let literal): bytes.append(contentsOf: literal.utf8)
        case .string(let s): string(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { bytes.append(UInt8(ascii: ",")) }
                value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (k, m) in members.enumerated() {
                if k > 0 { bytes.append(UInt8(ascii: ",")) }
                string(m.name)
                bytes.append(UInt8(ascii: ":"))
                value(m.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

/// Writes the members of one object in order, handling the commas.
package struct ObjectWriter {
    private var first = true

    /// Starts an object.
    package init(_ w: inout JSONWriter) { w.bytes.append(UInt8(ascii: "{")) }

    /// Writes a member name (and the comma before it when needed).
    package mutating func key(_ w: inout JSONWriter, _ name: StaticString) {
        if !first { w.bytes.append(UInt8(ascii: ",")) }
        first = false
        w.bytes.append(UInt8(ascii: "\""))
        w.raw(name)
        w.raw("\":")
    }

    /// Writes a member whose name is dynamic.
    package mutating func key(_ w: inout JSONWriter, name: String) {
        if !first { w.bytes.append(UInt8(ascii: ",")) }
        first = false
        w.string(name)
        w.bytes.append(UInt8(ascii: ":"))
    }

    /// Ends the object.
    package func end(_ w: inout JSONWriter) { w.bytes.append(UInt8(ascii: "}")) }
}
