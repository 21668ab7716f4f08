/// Nine captured members of one object, by slot (see `EnvelopeMember`, `DataMember.slot(in:)`).
///
/// A homogeneous tuple, read and written at `slot * stride`: one load or
/// store, where a switch over nine fields took a branch per access.
struct Slots {
    private var storage = (Capture(), Capture(), Capture(), Capture(), Capture(), Capture(), Capture(), Capture(), Capture())

    @inline(__always) private static func offset(_ k: Int) -> Int { min(max(k, 0), 8) &* MemoryLayout<Capture>.stride }

    @inline(__always) subscript(_ k: Int) -> Capture {
        get { withUnsafeBytes(of: storage) { $0.load(fromByteOffset: Slots.offset(k), as: Capture.self) } }
        set { withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: Slots.offset(k), as: Capture.self) } }
    }
}

/// Reads captured members of one object by the format's rules, naming the
/// member path and the rule on failure.
struct FieldRules {
    /// Where the object is: the envelope, `data`, or `data.answers[k]`.
    enum Path {
        case envelope, data, answer(Int)
    }

    let scanner: JSONScanner
    let path: Path
    /// False to check strings without making them (they come back empty): see ``LineCodec/checkRecord(_:)``.
    let materialize: Bool

    init(_ scanner: JSONScanner, _ path: Path, materialize: Bool = true) {
        self.scanner = scanner
        self.path = path
        self.materialize = materialize
    }

    func error(_ name: String, _ rule: String) -> EventError {
        switch path {
        case .envelope: EventError(.invalidEnvelope, member: name, rule)
        case .data: EventError(.invalidData, member: "data." + name, rule)
        case .answer(let k): EventError(.invalidData, member: "data.answers[\(k)]." + name, rule)
        }
    }

    // MARK: strings

    func string(_ c: Capture, _ name: String, max: Int = 256, noControl: Bool = false) throws(EventError) -> String {
        guard c.kind != .absent else { throw error(name, "is required") }
        return try checkString(c, name, max: max, noControl: noControl)
    }

    func optionalString(_ c: Capture, _ name: String, max: Int = 256, noControl: Bool = false) throws(EventError) -> String? {
        guard c.isPresent else { return nil }
        return try checkString(c, name, max: max, noControl: noControl)
    }

    private func checkString(_ c: Capture, _ name: String, max: Int, noControl: Bool) throws(EventError) -> String {
        guard c.kind == .string else { throw error(name, "must be a string, not \(c.kind.name)") }
        guard !c.flag else {
            return try checkString(scanner.string(c), name, max: max, noControl: noControl)
        }
        let raw = scanner.raw(c)
        guard !raw.isEmpty else { throw error(name, "must not be empty") }
        if raw.count > max {
            var n = 0
            for b in raw where b & 0xC0 != 0x80 { n += 1 }
            if n > max { throw error(name, "must be at most \(max) characters (has \(n))") }
        }
        if noControl {
            // Unescaped, a control character is U+007F or U+0080-U+009F (C2 80-C2 9F).
            for k in raw.indices {
                let b = raw[k]
                if b == 0x7F || (b == 0xC2 && k + 1 < raw.count && raw[k + 1] & 0xE0 == 0x80) {
                    return try checkString(scanner.string(c), name, max: max, noControl: noControl)
                }
            }
        }
        return materialize ? String(decoding: raw, as: UTF8.self) : ""
    }

    /// The rules on an unescaped string.
    private func checkString(_ s: String, _ name: String, max: Int, noControl: Bool) throws(EventError) -> String {
        guard !s.isEmpty else { throw error(name, "must not be empty") }
        if s.utf8.count > max {
            let n = s.unicodeScalars.count
            if n > max { throw error(name, "must be at most \(max) characters (has \(n))") }
        }
        if noControl, let c = s.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw error(name, "must not contain control characters (has U+\(String(c.value, radix: 16, uppercase: true).leftPadded(4)))")
        }
        return s
    }

    func enumeration<E: RawRepresentable & CaseIterable>(
        _ c: Capture, _ name: String, _ match: (UnsafeRawBufferPointer) -> E?
    ) throws(EventError) -> E where E.RawValue == String {
        guard c.kind != .absent else { throw error(name, "is required") }
        guard c.kind == .string else { throw error(name, "must be a string, not \(c.kind.name)") }
        if !c.flag, let e = match(scanner.raw(c)) { return e }
        let s = scanner.string(c)
        guard let e = E(rawValue: s) else {
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw error(name, "must be one of \(allowed) (got \"\(s)\")")
        }
        return e
    }

    // MARK: numbers and booleans

    func integer(_ c: Capture, _ name: String, min: Int? = nil) throws(EventError) -> Int {
        guard c.kind != .absent else { throw error(name, "is required") }
        return try checkInteger(c, name, min: min)
    }

    func optionalInteger(_ c: Capture, _ name: String, min: Int? = nil) throws(EventError) -> Int? {
        guard c.isPresent else { return nil }
        return try checkInteger(c, name, min: min)
    }

    private func checkInteger(_ c: Capture, _ name: String, min: Int?) throws(EventError) -> Int {
        func what() -> String { min == 0 ? "a count (an integer >= 0)" : min.map { "an integer >= \($0)" } ?? "an integer" }
        guard c.kind == .number else { throw error(name, "must be \(what()), not \(c.kind.name)") }
        guard !c.flag else {
            throw error(name, "must be \(what()) with no fraction or exponent (got \(scanner.text(c).prefixForMessage))")
        }
        guard let n = FieldRules.integer(scanner.raw(c)) else {
            throw error(name, "is out of range (got \(scanner.text(c).prefixForMessage))")
        }
        if let min, n < min { throw error(name, "must be \(what()) (got \(n))") }
        return n
    }

    /// The value of an integer literal (`-`? digits), nil when it does not fit an `Int`.
    static func integer(_ b: UnsafeRawBufferPointer) -> Int? {
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

extension String {
    /// At most 40 characters of the string, for messages.
    var prefixForMessage: String { count > 40 ? String(prefix(40)) + "…" : self }

    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
