/// Nine captured members of one object, by slot (see `EnvelopeMember`, `PayloadMember.slot`).
///
/// A homogeneous tuple, read and written at `slot * stride`: one load or
/// store, where a switch over nine fields took a branch per access.
struct Slots {
    private var storage = (Capture(), Capture(), Capture(), Capture(), Capture(), Capture(), Capture(), Capture(), Capture())

    @inline(__always) private static func offset(_ k: Int) -> Int { min(max(k, 0), 8) &* MemoryLayout<Capture>.stride }

    /// Slot `k`'s offset, `k` known to be 0 to 8 (no clamp; checked in debug builds).
    @inline(__always) private static func offset(unchecked k: Int) -> Int {
        assert(k >= 0 && k < 9, "a slot is 0 to 8")
        return k &* MemoryLayout<Capture>.stride
    }

    @inline(__always) subscript(_ k: Int) -> Capture {
        get { withUnsafeBytes(of: storage) { $0.load(fromByteOffset: Slots.offset(k), as: Capture.self) } }
        set { withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: Slots.offset(k), as: Capture.self) } }
    }

    /// Stores `c` in slot `k`, which the caller knows to be 0 to 8, without
    /// the subscript's clamp: the writer's walk, whose tables hold at most
    /// nine members (``ObjectWalk``). Checked in debug builds.
    @inline(__always) mutating func set(_ c: Capture, inSlot k: Int) {
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: c, toByteOffset: Slots.offset(unchecked: k), as: Capture.self) }
    }

    /// Runs `body` with the captures where they are, to read several (the
    /// subscript's getter may copy all nine for each capture read). Mutating
    /// only to be read at the caller's address (`inout`, only read): on a
    /// borrowed value, `withUnsafeBytes(of:)` copied all nine to the stack first.
    @inline(__always) mutating func readingInPlace<R>(_ body: (Reader) -> R) -> R {
        withUnsafeBytes(of: &storage) { body(Reader(bytes: $0)) }
    }

    /// The nine captures, read in place.
    struct Reader {
        let bytes: UnsafeRawBufferPointer

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        /// The captures of the ``Slots`` at `p` (its storage is its only member), read where they are.
        @inline(__always) init(at p: UnsafeRawPointer) {
            bytes = UnsafeRawBufferPointer(start: p, count: MemoryLayout<Slots>.size)
        }

        @inline(__always) subscript(_ k: Int) -> Capture { bytes.load(fromByteOffset: Slots.offset(k), as: Capture.self) }

        /// Slot `k`, which the caller knows to be 0 to 8, without the
        /// subscript's clamp (``DataRules/Compiled``'s masks hold slots 0 to 8 only). Checked in debug builds.
        @inline(__always) func at(_ k: Int) -> Capture { bytes.load(fromByteOffset: Slots.offset(unchecked: k), as: Capture.self) }
    }
}

/// Reads captured members of one object by the format's rules, naming the
/// member path and the rule on failure.
struct FieldRules {
    /// Where the object is: the envelope, `data`, or an item of `data`'s
    /// array member (whose errors name the member within the item: the
    /// array's reader, ``DataReader/objects(_:)``, adds where the item is).
    enum Path {
        case envelope, data, item
    }

    let scanner: JSONScanner
    let path: Path
    /// False to check strings without making them (they come back empty): see ``LineCodec/checkRecord(_:)``.
    let materialize: Bool
    /// The newest format version the reader knows: a member a later version
    /// added to a type (``PayloadMember/version``) is, to it, a member it does not know.
    let known: Int

    init(_ scanner: JSONScanner, _ path: Path, materialize: Bool = true, known: Int = FormatVersion.latest) {
        self.scanner = scanner
        self.path = path
        self.materialize = materialize
        self.known = known
    }

    /// The error of member `name` of this object.
    func error(_ name: String, _ rule: String) -> EventError {
        switch path {
        case .envelope: EventError(.invalidEnvelope, member: name, rule)
        case .data: EventError(.invalidData, member: "data." + name, rule)
        case .item: EventError(.invalidData, member: name, rule)
        }
    }

    /// The rules of an item of this object's array member.
    var item: FieldRules { FieldRules(scanner, .item, materialize: materialize, known: known) }

    /// The same rules, making every string they return.
    var made: FieldRules { FieldRules(scanner, path, known: known) }

    // MARK: strings

    @inline(__always)
    func string(_ c: Capture, _ name: String, _ rule: TextRule = .text) throws(EventError) -> String {
        guard c.kind != .absent else { throw error(name, "is required") }
        return try checkString(c, name, rule)
    }

    @inline(__always)
    func optionalString(_ c: Capture, _ name: String, _ rule: TextRule = .text) throws(EventError) -> String? {
        guard c.isPresent else { return nil }
        return try checkString(c, name, rule)
    }

    /// The rule on the string's UTF-8: the bytes of the line when it has no
    /// escapes (no `String` made when checking only), else the unescaped text.
    @inline(__always)
    private func checkString(_ c: Capture, _ name: String, _ rule: TextRule) throws(EventError) -> String {
        // A string without escapes keeping its rule, checked only, inline; anything else out of line.
        if !materialize, c.kind == .string, !c.flag, rule.problem(scanner.raw(c)) == nil { return "" }
        return try checkAnyString(c, name, rule)
    }

    @inline(never)
    private func checkAnyString(_ c: Capture, _ name: String, _ rule: TextRule) throws(EventError) -> String {
        guard c.kind == .string else { throw error(name, "must be a string, not \(c.kind.name)") }
        if c.flag {
            var s = scanner.string(c)
            if let problem = s.withUTF8({ rule.problem(UnsafeRawBufferPointer($0)) }) { throw error(name, problem) }
            return s
        }
        let raw = scanner.raw(c)
        if let problem = rule.problem(raw) { throw error(name, problem) }
        return materialize ? String(decoding: raw, as: UTF8.self) : ""
    }

    @inline(__always)
    func enumeration<E: RawRepresentable & CaseIterable>(
        _ c: Capture, _ name: String, _ match: (LineSlice) -> E?
    ) throws(EventError) -> E where E.RawValue == String {
        // Written without escapes and one of the values: inline; anything else by the whole rule.
        if c.kind == .string, !c.flag, let e = match(LineSlice(line: scanner.bytes, start: c.start, count: c.end &- c.start)) { return e }
        return try anyEnumeration(c, name, match)
    }

    @inline(never)
    private func anyEnumeration<E: RawRepresentable & CaseIterable>(
        _ c: Capture, _ name: String, _ match: (LineSlice) -> E?
    ) throws(EventError) -> E where E.RawValue == String {
        guard c.kind != .absent else { throw error(name, "is required") }
        guard c.kind == .string else { throw error(name, "must be a string, not \(c.kind.name)") }
        if !c.flag, let e = match(LineSlice(line: scanner.bytes, start: c.start, count: c.end &- c.start)) { return e }
        let s = scanner.string(c)
        guard let e = E(rawValue: s) else {
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw error(name, "must be one of \(allowed) (got \"\(s.prefixForMessage)\")")
        }
        return e
    }

    // MARK: numbers and booleans

    @inline(__always)
    func optionalInteger(_ c: Capture, _ name: String, min: Int) throws(EventError) -> Int? {
        guard c.isPresent else { return nil }
        return try checkInteger(c, name, min: min)
    }

    @inline(__always)
    func integer(_ c: Capture, _ name: String, min: Int? = nil) throws(EventError) -> Int {
        guard c.kind != .absent else { throw error(name, "is required") }
        return try checkInteger(c, name, min: min)
    }

    @inline(__always) private func checkInteger(_ c: Capture, _ name: String, min: Int?) throws(EventError) -> Int {
        // A plain integer keeping its minimum and the bound at once; anything
        // else by the whole rule, which names what is broken (it accepts this
        // case too, with the same value).
        if c.kind == .number, !c.flag, let n = FieldRules.integer(scanner.raw(c)), n >= (min ?? n), FieldRules.isInRange(n) { return n }
        return try checkAnyInteger(c, name, min: min)
    }

    @inline(never) private func checkAnyInteger(_ c: Capture, _ name: String, min: Int?) throws(EventError) -> Int {
        func what() -> String { min == 0 ? "a count (an integer >= 0)" : min.map { "an integer >= \($0)" } ?? "an integer" }
        guard c.kind == .number else { throw error(name, "must be \(what()), not \(c.kind.name)") }
        guard !c.flag else {
            throw error(name, "must be \(what()) with no fraction or exponent (got \(scanner.text(c).prefixForMessage))")
        }
        guard let n = FieldRules.integer(scanner.raw(c)) else {
            throw error(name, "\(FieldRules.outOfRange) (got \(scanner.text(c).prefixForMessage))")
        }
        if let min, n < min { throw error(name, "must be \(what()) (got \(n))") }
        guard FieldRules.isInRange(n) else { throw error(name, "\(FieldRules.outOfRange) (got \(n))") }
        return n
    }

    /// The largest magnitude of a number the format defines: 2^53 − 1, the
    /// range every JSON reader holds exactly (I-JSON, RFC 7493). Larger is
    /// `invalid_data` naming the member, at append and at verify alike.
    package static let largestNumber = 9_007_199_254_740_991

    /// What a number beyond ``largestNumber`` breaks, in errors.
    static let outOfRange = "is out of range: at most 9007199254740991 (2^53 - 1)"

    /// The bound on an integer member: at most ``largestNumber`` either side of zero.
    @inline(__always) static func isInRange(_ n: Int) -> Bool {
        n <= largestNumber && n >= -largestNumber
    }

    /// The bound on a number member (``Seconds``).
    @inline(__always) static func isInRange(_ x: Double) -> Bool {
        x <= Double(largestNumber) && x >= -Double(largestNumber)
    }

    /// The whole rule on an integer member (its ``PayloadMember/minimum`` and
    /// the bound), for a typed value: what ``integer(_:_:min:)`` accepts.
    @inline(__always) static func keeps(_ n: Int, min: Int) -> Bool {
        n >= min && isInRange(n)
    }

    /// The value of an integer literal (`-`? digits), nil when it does not fit an `Int`.
    @inline(__always)
    static func integer(_ b: UnsafeRawBufferPointer) -> Int? {
        let n = b.count
        if n >= 1, n <= 18, b[0] != UInt8(ascii: "-") {
            // At most 18 digits always fit: no overflow to check (inline: most members' values).
            var v = 0
            for k in 0..<n {
                let d = b[k] &- 48
                guard d < 10 else { return nil }
                v = v &* 10 &+ Int(d)
            }
            return v
        }
        return anyInteger(b)
    }

    /// ``integer(_:)`` of any literal: a sign, or more than 18 digits (overflow checked).
    @inline(never)
    private static func anyInteger(_ b: UnsafeRawBufferPointer) -> Int? {
        let negative = b.first == UInt8(ascii: "-")
        var k = negative ? 1 : 0
        guard k < b.count else { return nil }
        if b.count &- k <= 18 {
            // At most 18 digits always fit: no overflow to check.
            var v = 0
            while k < b.count {
                let d = b[k] &- 48
                guard d < 10 else { return nil }
                v = v &* 10 &+ Int(d)
                k &+= 1
            }
            return negative ? 0 &- v : v
        }
        var v = 0
        while k < b.count {
            let d = b[k] &- 48
            guard d < 10 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = negative ? m.subtractingReportingOverflow(Int(d)) : m.addingReportingOverflow(Int(d))
            guard !o1, !o2 else { return nil }
            v = a
            k += 1
        }
        return v
    }

    func bool(_ c: Capture, _ name: String) throws(EventError) -> Bool {
        guard c.kind != .absent else { throw error(name, "is required") }
        guard c.kind == .bool else { throw error(name, "must be true or false, not \(c.kind.name)") }
        return c.flag
    }

    func optionalBool(_ c: Capture, _ name: String) throws(EventError) -> Bool? {
        guard c.isPresent else { return nil }
        guard c.kind == .bool else { throw error(name, "must be true or false, not \(c.kind.name)") }
        return c.flag
    }
}

/// The rule of a text member: not empty, at most `max` characters (Unicode
/// scalars), and, with `noControl`, no U+0000-U+001F or U+007F-U+009F.
/// ``problem(_:)`` is the one check of it: the decoder runs it on a string's
/// bytes, the append check (``AppendCheck``) on a typed value's.
struct TextRule {
    let max: Int
    let noControl: Bool

    /// Most strings of the format: 1 to 256 characters.
    static var text: TextRule { TextRule(max: 256, noControl: false) }
    /// `user` and `device`: 1 to 128 characters, no control characters.
    static var name: TextRule { TextRule(max: 128, noControl: true) }
    /// A text member that also refuses control characters (``PayloadMember/noControl``: an answer's `item`).
    static var plain: TextRule { TextRule(max: 256, noControl: true) }

    /// The rule of a `data` member's text: ``plain`` when it refuses control characters, else ``text``.
    static func of<M: PayloadMember>(_ m: M) -> TextRule { m.noControl ? .plain : .text }

    /// What the valid UTF-8 `u` breaks, as the rule's text; nil when it keeps the rule.
    @inline(__always)
    func problem(_ u: UnsafeRawBufferPointer) -> String? {
        // Plainly kept (not empty, no more bytes than characters allowed, no
        // byte a control character may start with) inline; anything else,
        // and every message, by the whole rule.
        if !u.isEmpty, u.count <= max, !noControl || !TextRule.mayHoldControl(u) { return nil }
        return anyProblem(u)
    }

    /// ``problem(_:)`` read byte by byte where it must be.
    @inline(never)
    private func anyProblem(_ u: UnsafeRawBufferPointer) -> String? {
        guard !u.isEmpty else { return "must not be empty" }
        if u.count > max {
            var n = 0
            for b in u where b & 0xC0 != 0x80 { n += 1 }
            if n > max { return "must be at most \(max) characters (has \(n))" }
        }
        guard noControl, TextRule.mayHoldControl(u) else { return nil }
        // A control character's UTF-8: a byte below 0x20, 0x7F, or C2 80-C2 9F.
        for k in u.indices {
            let b = u[k]
            let scalar: UInt8? = b < 0x20 || b == 0x7F ? b : b == 0xC2 && k &+ 1 < u.count && u[k &+ 1] < 0xA0 ? u[k &+ 1] : nil
            if let scalar {
                return "must not contain control characters (has U+\(String(scalar, radix: 16, uppercase: true).leftPadded(4)))"
            }
        }
        return nil
    }

    /// Whether `u` holds a byte below 0x20, 0x7F or 0xC2 (the first byte of
    /// U+0080-U+00BF): false means no control character, and ``problem(_:)``
    /// need not look byte by byte. Eight bytes at a time; a word with such a
    /// byte may also flag bytes above it (borrows), never one when it has none.
    @inline(__always)
    private static func mayHoldControl(_ u: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high = ones &* 0x80
        @inline(__always) func flagged(_ w: UInt64) -> Bool {
            let del = w ^ (ones &* 0x7F), c2 = w ^ (ones &* 0xC2)
            let below = (w &- ones &* 0x20) & ~w
            return (below | ((del &- ones) & ~del) | ((c2 &- ones) & ~c2)) & high != 0
        }
        // Spaces in the lanes past a short value: never flagged.
        return ByteSearch.anyWord(of: u, paddedWith: 0x20, flagged)
    }

    /// ``problem(_:)`` on a `String`'s UTF-8.
    @inline(__always)
    func keeps(_ s: String) -> Bool {
        if let kept = s.utf8.withContiguousStorageIfAvailable({ problem(UnsafeRawBufferPointer($0)) == nil }) { return kept }
        return Array(s.utf8).withUnsafeBytes { problem($0) == nil }
    }
}

extension String {
    /// At most 40 characters of the string, for messages: a longer value is
    /// cut, with its length (`xxxx…, 60000 characters`), so an error never
    /// echoes a whole rejected value. Every message that quotes a value uses it.
    package var prefixForMessage: String { count > 40 ? String(prefix(40)) + "…, \(count) characters" : self }

    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
