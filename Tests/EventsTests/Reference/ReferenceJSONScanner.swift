@testable import Events

// Frozen copy of the former library code: see ReferenceLineCodec.swift.
/// A strict JSON parser over the bytes of one line.
///
/// Tracks only the byte offset while scanning; callers turn the offset into a
/// column when they report. Enforces what the log format adds to JSON: no
/// duplicate member names, UTF-8 only, bounded nesting.
struct ReferenceJSONScanner {
    /// Deepest nesting of arrays and objects accepted; deeper input is refused, never recursed into.
    static let maxDepth = 128

    private let bytes: UnsafeRawBufferPointer
    private var i = 0
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Parses one whole line as a JSON value; the line must hold exactly one value.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(EventError) -> JSONValue {
        var scanner = ReferenceJSONScanner(bytes)
        scanner.skipWhitespace()
        let value = try scanner.parseValue()
        scanner.skipWhitespace()
        guard scanner.i == bytes.count else {
            throw scanner.fail("unexpected characters after the JSON value")
        }
        return value
    }

    private func fail(_ rule: String, at offset: Int? = nil) -> EventError {
        let at = offset ?? i
        let what = at < bytes.count ? " (column \(at + 1))" : " (at the end of the line)"
        return EventError(.notJSON, rule + what, offset: at)
    }

    @inline(__always) private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    @inline(__always) private mutating func skipWhitespace() {
        while i < bytes.count {
            let c = bytes[i]
            guard c == 0x20 || c == 0x09 else { return }
            i += 1
        }
    }

    private mutating func parseValue() throws(EventError) -> JSONValue {
        guard let c = peek() else { throw fail("expected a value") }
        switch c {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(EventError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("invalid literal") }
        let w = word.utf8Start
        for k in 0..<n where bytes[i + k] != w[k] { throw fail("invalid literal") }
        i += n
    }

    private mutating func enter() throws(EventError) {
        depth += 1
        guard depth <= ReferenceJSONScanner.maxDepth else {
            throw fail("nested deeper than \(ReferenceJSONScanner.maxDepth) levels")
        }
    }

    private mutating func parseObject() throws(EventError) -> JSONValue {
        try enter()
        i += 1
        var members: [JSONMember] = []
        var seen: Set<String>? = nil
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let nameOffset = i
            let name = try parseString()
            // Linear search is fastest for the small objects of the format;
            // a set takes over for large ones so hostile input stays linear.
            if members.count < 16 {
                for m in members where m.name == name {
                    throw EventError(.duplicateMember, member: name, "appears more than once in one object", offset: nameOffset)
                }
            } else {
                if seen == nil { seen = Set(members.map(\.name)) }
                if seen?.insert(name).inserted == false {
                    throw EventError(.duplicateMember, member: name, "appears more than once in one object", offset: nameOffset)
                }
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
            i += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(name, value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; depth -= 1; return .object(members)
            default: throw fail("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(EventError) -> JSONValue {
        try enter()
        i += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; depth -= 1; return .array(items)
            default: throw fail("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseNumber() throws(EventError) -> String {
        let start = i
        if peek() == UInt8(ascii: "-") { i += 1 }
        guard let first = peek(), first >= 48, first <= 57 else { throw fail("invalid number") }
        i += 1
        if first != 48 { while let c = peek(), c >= 48, c <= 57 { i += 1 } }
        if peek() == UInt8(ascii: ".") {
            i += 1
            guard let c = peek(), c >= 48, c <= 57 else { throw fail("invalid number: digits must follow '.'") }
            while let c = peek(), c >= 48, c <= 57 { i += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            i += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
            guard let c = peek(), c >= 48, c <= 57 else { throw fail("invalid number: digits must follow the exponent") }
            while let c = peek(), c >= 48, c <= 57 { i += 1 }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    }

    /// Parses a string at `i` (which holds the opening quote). The line's UTF-8
    /// was validated before parsing, so bytes >= 0x80 are copied as they are.
    private mutating func parseString() throws(EventError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("control character in a string must be escaped") }
            i += 1
        }
        guard i < bytes.count else { throw fail("unterminated string", at: start - 1) }
        var out = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw fail("control character in a string must be escaped") }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            let escapeOffset = i
            i += 1
            guard let e = peek() else { break }
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw EventError(.encoding, "lone surrogate \\u escape in a string (column \(escapeOffset + 1))", offset: escapeOffset)
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw EventError(.encoding, "lone surrogate \\u escape in a string (column \(escapeOffset + 1))", offset: escapeOffset)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw EventError(.encoding, "lone surrogate \\u escape in a string (column \(escapeOffset + 1))", offset: escapeOffset)
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape", at: escapeOffset) }
                UTF8.encode(u) { out.append($0) }
            default:
                throw fail("invalid escape in a string", at: escapeOffset)
            }
        }
        throw fail("unterminated string", at: start - 1)
    }

    private mutating func hex4() throws(EventError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("invalid \\u escape: four hex digits expected") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt8
            switch c {
            case 48...57: d = c - 48
            case 65...70: d = c - 55
            case 97...102: d = c - 87
            default: throw fail("invalid \\u escape: four hex digits expected")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }
}
