@testable import Events

// Frozen copy of the former library code: see ReferenceLineCodec.swift.
/// Writes compact JSON bytes: no insignificant whitespace, strings escaped
/// minimally (`"`, `\`, and control characters below U+0020).
struct ReferenceJSONWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    /// Makes an empty writer.
    init() { bytes.reserveCapacity(256) }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes a JSON string literal.
    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0..<0x20:
                raw("\\u00")
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(hex[Int(c >> 4)])
                bytes.append(hex[Int(c & 0xF)])
            default: bytes.append(c)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func integer(_ n: Int) {
        bytes.append(contentsOf: String(n).utf8)
    }

    mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    mutating func value(_ v: JSONValue) {
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
struct ReferenceObjectWriter {
    private var first = true

    /// Starts an object.
    init(_ w: inout ReferenceJSONWriter) { w.bytes.append(UInt8(ascii: "{")) }

    /// Writes a member name (and the comma before it when needed).
    mutating func key(_ w: inout ReferenceJSONWriter, _ name: StaticString) {
        if !first { w.bytes.append(UInt8(ascii: ",")) }
        first = false
        w.bytes.append(UInt8(ascii: "\""))
        w.raw(name)
        w.raw("\":")
    }

    /// Writes a member whose name is dynamic.
    mutating func key(_ w: inout ReferenceJSONWriter, name: String) {
        if !first { w.bytes.append(UInt8(ascii: ",")) }
        first = false
        w.string(name)
        w.bytes.append(UInt8(ascii: ":"))
    }

    /// Ends the object.
    func end(_ w: inout ReferenceJSONWriter) { w.bytes.append(UInt8(ascii: "}")) }
}
