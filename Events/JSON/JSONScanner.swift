/// A strict JSON parser over the bytes of one line.
///
/// Tracks only the byte offset while scanning; callers turn the offset into a
/// column when they report. Enforces what the log format adds to JSON: no
/// duplicate member names, bounded nesting.
///
/// It works in two layers: token scanners (``scanString()``, ``scanNumber()``,
/// ``captureValue()``) that validate a value and return where it lies, as a
/// ``Capture``, without making a `String`; and ``parseValue()``, which builds a
/// ``JSONValue`` tree from them. The line decoder uses the first for the
/// members it knows and the second for everything else.
///
/// Two modes: ``parse(_:)`` parses a buffer whose UTF-8 the caller checked
/// (a JSON document); the line decoder's mode (`checksLine`) also validates
/// the UTF-8 inside strings, and puts the line checks (CR, BOM, UTF-8) before
/// any error it reports, as if they had run first.
struct JSONScanner {
    /// Deepest nesting of arrays and objects accepted; deeper input is refused, never recursed into.
    static let maxDepth = 128

    let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    var i = 0
    /// How many arrays and objects enclose `i`.
    var depth = 0
    /// Whether this is a log line: UTF-8 is validated here and line checks come first.
    let checksLine: Bool

    init(_ bytes: UnsafeRawBufferPointer, checksLine: Bool, at offset: Int = 0, depth: Int = 0) {
        self.bytes = bytes
        self.checksLine = checksLine
        self.i = offset
        self.depth = depth
    }

    /// Parses one whole buffer as a JSON value; it must hold exactly one value.
    ///
    /// The caller has checked the buffer's UTF-8; bytes >= 0x80 are taken as they are.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(EventError) -> JSONValue {
        guard bytes.count < Int(UInt32.max) else {
            throw EventError(.notJSON, "the document is \(bytes.count) bytes; at most 4 GiB can be parsed")
        }
        var scanner = JSONScanner(bytes, checksLine: false)
        scanner.skipWhitespace()
        let value = try scanner.parseValue()
        try scanner.expectEnd()
        return value
    }

    // MARK: - Errors

    /// A `not_json` error at `offset` (default: the current byte).
    func fail(_ rule: String, at offset: Int? = nil) -> EventError {
        let at = offset ?? i
        let what = at < bytes.count ? " (column \(at + 1))" : " (at the end of the line)"
        return checked(EventError(.notJSON, rule + what, offset: at))
    }

    /// `error`, unless the line breaks a line check (CR, BOM, UTF-8): that comes first.
    func checked(_ error: EventError) -> EventError {
        guard checksLine, let problem = LineChecks.problem(bytes) else { return error }
        return problem
    }

    func duplicate(_ name: String, at offset: Int) -> EventError {
        checked(EventError(.duplicateMember, member: name, "appears more than once in one object", offset: offset))
    }

    // MARK: - Structure

    @inline(__always) var atEnd: Bool { i >= bytes.count }

    @inline(__always) func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    @inline(__always) mutating func skipWhitespace() {
        while i < bytes.count {
            let c = bytes[i]
            guard c == 0x20 || c == 0x09 else { return }
            i += 1
        }
    }

    /// After the top-level value: only whitespace may follow.
    mutating func expectEnd() throws(EventError) {
        skipWhitespace()
        guard i == bytes.count else { throw fail("unexpected characters after the JSON value") }
    }

    @inline(__always) mutating func enter() throws(EventError) {
        depth += 1
        guard depth <= JSONScanner.maxDepth else {
            throw fail("nested deeper than \(JSONScanner.maxDepth) levels")
        }
    }

    /// At `{`: enters the object. True when a member follows (`i` at its name);
    /// false for `{}` (`i` past it).
    @inline(__always) mutating func openObject() throws(EventError) -> Bool {
        try open(closedBy: UInt8(ascii: "}"))
    }

    /// A member's name: the string at `i`, after whitespace. Its quote is at `start - 1`.
    @inline(__always) mutating func memberName() throws(EventError) -> Capture {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
        return try scanString()
    }

    /// The `:` after a member name; leaves `i` at the value.
    @inline(__always) mutating func colon() throws(EventError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
        i += 1
        skipWhitespace()
    }

    /// After a member's value: true when another member follows, false past the closing `}`.
    @inline(__always) mutating func nextMember() throws(EventError) -> Bool {
        try next(closedBy: UInt8(ascii: "}"), in: "an object")
    }

    /// At `[`: enters the array. True when an item follows, false for `[]` (`i` past it).
    @inline(__always) mutating func openArray() throws(EventError) -> Bool {
        try open(closedBy: UInt8(ascii: "]"))
    }

    /// After an item: true when another follows, false past the closing `]`.
    @inline(__always) mutating func nextItem() throws(EventError) -> Bool {
        try next(closedBy: UInt8(ascii: "]"), in: "an array")
    }

    /// At an object's or array's opening byte: enters it. True when a member
    /// or item follows, false when `closer` comes first (`i` past it).
    @inline(__always) private mutating func open(closedBy closer: UInt8) throws(EventError) -> Bool {
        try enter()
        i += 1
        skipWhitespace()
        if peek() == closer { i += 1; depth -= 1; return false }
        return true
    }

    /// After a member or an item: true when another follows (a `,`), false
    /// past `closer`; anything else is an error naming the container.
    @inline(__always) private mutating func next(closedBy closer: UInt8, in container: StaticString) throws(EventError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","): i += 1; return true
        case closer: i += 1; depth -= 1; return false
        default: throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))' in \(container)")
        }
    }

    // MARK: - Values

    /// Validates the value at `i` and says where it lies; arrays and objects are
    /// parsed in full (and thrown away).
    @inline(__always) mutating func captureValue() throws(EventError) -> Capture {
        guard let c = peek() else { throw fail("expected a value") }
        switch c {
        case UInt8(ascii: "\""): return try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try scanNumber()
        case UInt8(ascii: "t"): try literal("true"); return Capture(.bool, flag: true)
        case UInt8(ascii: "f"): try literal("false"); return Capture(.bool, flag: false)
        case UInt8(ascii: "n"): try literal("null"); return Capture(.null)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let start = i
            _ = try parseValue()
            return Capture(c == UInt8(ascii: "{") ? .object : .array, start: start, end: i)
        default: throw fail("unexpected character")
        }
    }

    /// Parses the value at `i` into a tree.
    mutating func parseValue() throws(EventError) -> JSONValue {
        guard let c = peek() else { throw fail("expected a value") }
        switch c {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(string(try scanString()))
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(text(try scanNumber()))
        default: throw fail("unexpected character")
        }
    }

    @inline(__always) mutating func literal(_ word: StaticString) throws(EventError) {
        let n = word.utf8CodeUnitCount
        guard i &+ n <= bytes.count else { throw invalidLiteral() }
        let w = word.utf8Start
        for k in 0..<n where bytes[i &+ k] != w[k] { throw invalidLiteral() }
        i &+= n
    }

    @inline(never) private func invalidLiteral() -> EventError { fail("invalid literal") }

    private mutating func parseObject() throws(EventError) -> JSONValue {
        var members: [JSONMember] = []
        guard try openObject() else { return .object(members) }
        var seen = DuplicateCheck()
        repeat {
            let nameToken = try memberName()
            let name = string(nameToken)
            if seen.repeats(name, among: members.lazy.map(\.name)) { throw duplicate(name, at: nameToken.start - 1) }
            try colon()
            let value = try parseValue()
            members.append(JSONMember(name, value))
        } while try nextMember()
        return .object(members)
    }

    private mutating func parseArray() throws(EventError) -> JSONValue {
        var items: [JSONValue] = []
        guard try openArray() else { return .array(items) }
        repeat {
            skipWhitespace()
            items.append(try parseValue())
        } while try nextItem()
        return .array(items)
    }

    /// Whether `u` is exactly one JSON number literal.
    static func isNumber(_ u: UnsafeRawBufferPointer) -> Bool {
        var s = JSONScanner(u, checksLine: false)
        guard (try? s.scanNumber()) != nil else { return false }
        return s.i == u.count
    }

    /// Scans a number at `i`: JSON's grammar, kept as its literal.
    @inline(__always) mutating func scanNumber() throws(EventError) -> Capture {
        // Inline fast path: the writer's integers, `1-9` then digits, with no
        // fraction or exponent after them (read the same by the whole grammar below).
        let start = i, n = bytes.count
        if start < n, bytes[start] &- 0x31 < 9 {
            let k = ByteSearch.digitsEnd(bytes, from: start &+ 1)
            if k == n || (bytes[k] != UInt8(ascii: ".") && bytes[k] | 0x20 != UInt8(ascii: "e")) {
                i = k
                return Capture(.number, start: start, end: k, flag: false)
            }
        }
        return try scanAnyNumber()
    }

    /// ``scanNumber()`` for any number.
    @inline(never) private mutating func scanAnyNumber() throws(EventError) -> Capture {
        let start = i
        let n = bytes.count
        @inline(__always) func digit(_ k: Int) -> Bool { k < n && bytes[k] &- 48 < 10 }
        var fraction = false
        if peek() == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { throw fail("invalid number") }
        let first = bytes[i]
        i += 1
        if first != 48 { while digit(i) { i += 1 } }
        if peek() == UInt8(ascii: ".") {
            fraction = true
            i += 1
            guard digit(i) else { throw fail("invalid number: digits must follow '.'") }
            while digit(i) { i += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            fraction = true
            i += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
            guard digit(i) else { throw fail("invalid number: digits must follow the exponent") }
            while digit(i) { i += 1 }
        }
        return Capture(.number, start: start, end: i, flag: fraction)
    }

    /// Scans a string at `i` (which holds the opening quote) and leaves `i`
    /// past the closing one. The capture's range is the content between the quotes.
    @inline(__always) mutating func scanString() throws(EventError) -> Capture {
        // Inline fast path: a short string (the closing quote among the next
        // sixteen bytes, found by one SIMD compare of them) without escapes,
        // control characters or non-ASCII bytes: most names and values of a line.
        let start = i &+ 1
        if start &+ 16 <= bytes.count, let lane = ByteSearch.firstSpecial(inBlockAt: start, of: bytes),
           bytes[start &+ lane] == UInt8(ascii: "\"") {
            i = start &+ lane &+ 1
            return Capture(.string, start: start, end: i &- 1)
        }
        return try scanPlainString()
    }

    /// ``scanString()`` for a longer string (`at`, `prev`) or one near the
    /// line's end: whole blocks of sixteen, then the line's last sixteen
    /// bytes (those before the block's start left out), while no special
    /// byte comes before the closing quote; any other string is read by
    /// ``scanLongString()`` from its start.
    @inline(never) private mutating func scanPlainString() throws(EventError) -> Capture {
        let start = i &+ 1
        guard let end = ByteSearch.plainStringEnd(bytes, from: start) else { return try scanLongString() }
        i = end &+ 1
        return Capture(.string, start: start, end: end)
    }

    /// ``scanString()`` for any string.
    @inline(never) private mutating func scanLongString() throws(EventError) -> Capture {
        i += 1
        let start = i
        let n = bytes.count
        var nonASCII = false
        // No escapes so far. Sixteen bytes at a time (SIMD), then eight
        // (SWAR), while none of them is a quote, a backslash, a control
        // character or a non-ASCII byte.
        while i < n {
            if i &+ 16 <= n {
                // At the first special byte, or where fewer than sixteen bytes are left.
                i = ByteSearch.firstSpecialInBlocks(bytes, from: i)
                if i == n { break }
            } else if i &+ 8 <= n {
                let mask = JSONScanner.specialBytes(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                if mask == 0 { i &+= 8; continue }
                i &+= mask.trailingZeroBitCount &>> 3
            }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return Capture(.string, start: start, end: i - 1, flag: false, nonASCII: nonASCII)
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("control character in a string must be escaped") }
            if c >= 0x80 { nonASCII = true; i += try width(); continue }
            i += 1
        }
        guard i < n else { throw fail("unterminated string", at: start - 1) }
        return try scanEscapedString(start: start, nonASCII: nonASCII)
    }

    /// The rest of a string from its first backslash at `i`.
    private mutating func scanEscapedString(start: Int, nonASCII: Bool) throws(EventError) -> Capture {
        var nonASCII = nonASCII
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return Capture(.string, start: start, end: i - 1, flag: true, nonASCII: nonASCII)
            }
            if c < 0x20 { throw fail("control character in a string must be escaped") }
            if c != UInt8(ascii: "\\") {
                if c >= 0x80 { nonASCII = true; i += try width() } else { i += 1 }
                continue
            }
            let escapeOffset = i
            i += 1
            guard let e = peek() else { break }
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                 UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < n, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw loneSurrogate(escapeOffset)
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(escapeOffset) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw loneSurrogate(escapeOffset)
                }
                guard Unicode.Scalar(scalar) != nil else { throw fail("invalid \\u escape", at: escapeOffset) }
                if scalar >= 0x80 { nonASCII = true }
            default:
                throw fail("invalid escape in a string", at: escapeOffset)
            }
        }
        throw fail("unterminated string", at: start - 1)
    }

    private func loneSurrogate(_ offset: Int) -> EventError {
        checked(EventError(.encoding, "lone surrogate \\u escape in a string (column \(offset + 1))", offset: offset))
    }

    /// The length of the UTF-8 sequence at `i` (>= 0x80); on a line, it must be valid.
    @inline(__always) private func width() throws(EventError) -> Int {
        guard checksLine else { return 1 }
        guard let w = LineChecks.utf8Width(bytes, i) else { throw checked(LineChecks.invalidUTF8(at: i)) }
        return w
    }

    private mutating func hex4() throws(EventError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("invalid \\u escape: four hex digits expected") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = JSONScanner.hexValue(bytes[i]) else { throw fail("invalid \\u escape: four hex digits expected") }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    @inline(__always) static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }

    /// A mask with the high bit set in (at least) the lowest byte of `word` (in
    /// memory order) that is a quote, a backslash, below 0x20 or (with
    /// `orNonASCII`) >= 0x80; zero if none is. The encoder's escapes are the
    /// first three (`JSONWriter.Cursor`).
    ///
    /// Bytes above a flagged byte may be flagged falsely (borrows), never bytes below it.
    @inline(__always) static func specialBytes(_ word: UInt64, orNonASCII: Bool = true) -> UInt64 {
        let w = UInt64(littleEndian: word)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = w ^ (ones &* 0x22)
        let backslash = w ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        let isControl = (w &- ones &* 0x20) & ~w
        return (isQuote | isBackslash | isControl | (orNonASCII ? w : 0)) & (ones &* 0x80)
    }

    // MARK: - Strings from captures

    /// The bytes of a capture's range (captures are made by scanning `bytes`, so it lies within them).
    @inline(__always) func raw(_ c: Capture) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes.baseAddress.map { $0 + c.start }, count: c.end &- c.start)
    }

    /// A number's literal or any capture's bytes, as text.
    func text(_ c: Capture) -> String {
        String(decoding: raw(c), as: UTF8.self)
    }

    /// A captured value as a tree (a member kept as written).
    func value(_ c: Capture) -> JSONValue {
        switch c.kind {
        case .absent, .null: .null
        case .bool: .bool(c.flag)
        case .number: .number(text(c))
        case .string: .string(string(c))
        case .array, .object: (try? JSONScanner.parse(raw(c))) ?? .null
        }
    }

    /// A string capture's value, unescaped.
    func string(_ c: Capture) -> String {
        guard c.flag else { return String(decoding: raw(c), as: UTF8.self) }
        return String(decoding: unescapedBytes(c), as: UTF8.self)
    }

    /// The UTF-8 of a scanned string with escapes (already validated).
    func unescapedBytes(_ c: Capture) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(c.end - c.start)
        var k = c.start
        @inline(__always) func hex(_ at: Int) -> UInt32 {
            var v: UInt32 = 0
            for j in at..<(at + 4) { v = v << 4 | UInt32(JSONScanner.hexValue(bytes[j]) ?? 0) }
            return v
        }
        while k < c.end {
            let b = bytes[k]
            guard b == UInt8(ascii: "\\"), k + 1 < c.end else { out.append(b); k += 1; continue }
            let e = bytes[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex(k)
                k += 4
                if (0xD800...0xDBFF).contains(scalar), k + 6 <= c.end {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex(k + 2) - 0xDC00)
                    k += 6
                }
                if let u = Unicode.Scalar(scalar) { UTF8.encode(u) { out.append($0) } }
            default: out.append(e) // `"`, `\`, `/`
            }
        }
        return out
    }
}

/// Where one scanned value lies in the line, and what it is.
///
/// Twelve bytes, as the decoder keeps one per known member and copies them
/// around: offsets are 32-bit (a line is at most 1 MiB; `parse` refuses
/// buffers of 4 GiB and more).
struct Capture {
    /// The kinds of JSON value, and `absent` for a member not given.
    enum Kind: UInt8 {
        case absent, null, bool, number, string, array, object

        /// The JSON type's name, for messages.
        var name: String {
            switch self {
            case .absent: "absent"
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    private var lower: UInt32
    private var upper: UInt32
    var kind: Kind
    /// A boolean's value; whether a string has escapes; whether a number has a fraction or exponent.
    var flag: Bool
    /// Whether a string holds a scalar >= U+0080.
    var nonASCII: Bool

    @inline(__always)
    init(_ kind: Kind = .absent, start: Int = 0, end: Int = 0, flag: Bool = false, nonASCII: Bool = false) {
        self.kind = kind
        self.lower = UInt32(truncatingIfNeeded: start)
        self.upper = UInt32(truncatingIfNeeded: end)
        self.flag = flag
        self.nonASCII = nonASCII
    }

    /// A string's content (between its quotes); other values' first byte.
    @inline(__always) var start: Int { Int(lower) }
    /// Past the value (a string: its closing quote).
    @inline(__always) var end: Int { Int(upper) }

    /// Whether the member was given and is not `null`: what "present" means for an optional member.
    @inline(__always) var isPresent: Bool { kind != .absent && kind != .null }
}

/// Finds a member name given twice, as `String` equality does (canonical
/// equivalence): linear for small objects, a set beyond 16 names so that
/// hostile input stays linear.
struct DuplicateCheck {
    private var set: Set<String>? = nil   // not a format string: member names, compared as Swift does on purpose (docs/format.md, Decisions)

    /// Whether `name` equals one of `names` (the object's names before it); remembers it.
    mutating func repeats<Names: Collection<String>>(_ name: String, among names: Names) -> Bool {
        if names.count < 16 { return names.contains(name) }
        if set == nil { set = Set(names) }
        return set?.insert(name).inserted == false
    }
}
