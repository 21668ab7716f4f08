@testable import Events

// Frozen copy of the former library code: see ReferenceLineCodec.swift.
/// Reads typed members of one JSON object, naming the member path and the
/// rule on failure.
struct ReferenceMemberReader {
    let members: [JSONMember]
    /// The path of this object, e.g. `data` or `data.answers[2]`; empty for the envelope.
    let path: String
    /// The kind of error a broken rule is: `invalid_envelope` or `invalid_data`.
    let kind: EventError.Kind

    init(_ members: [JSONMember], path: String, kind: EventError.Kind) {
        self.members = members; self.path = path; self.kind = kind
    }

    func memberPath(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    func error(_ name: String, _ rule: String) -> EventError {
        EventError(kind, member: memberPath(name), rule)
    }

    /// The raw value, `nil` when absent.
    func raw(_ name: String) -> JSONValue? {
        for m in members where m.name == name { return m.value }
        return nil
    }

    /// The value of an optional member: absent and `null` are both nil.
    func optional(_ name: String) -> JSONValue? {
        guard let v = raw(name), v != .null else { return nil }
        return v
    }

    func required(_ name: String) throws(EventError) -> JSONValue {
        guard let v = raw(name) else { throw error(name, "is required") }
        return v
    }

    // MARK: strings

    func string(_ name: String, max: Int = 256, noControl: Bool = false) throws(EventError) -> String {
        try checkString(name, try required(name), max: max, noControl: noControl)
    }

    func optionalString(_ name: String, max: Int = 256, noControl: Bool = false) throws(EventError) -> String? {
        guard let v = optional(name) else { return nil }
        return try checkString(name, v, max: max, noControl: noControl)
    }

    func checkString(_ name: String, _ v: JSONValue, max: Int, noControl: Bool) throws(EventError) -> String {
        guard case .string(let s) = v else { throw error(name, "must be a string, not \(v.referenceTypeName)") }
        guard !s.isEmpty else { throw error(name, "must not be empty") }
        if s.utf8.count > max {
            let n = s.unicodeScalars.count
            if n > max { throw error(name, "must be at most \(max) characters (has \(n))") }
        }
        if noControl, let c = s.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw error(name, "must not contain control characters (has U+\(String(c.value, radix: 16, uppercase: true).referenceLeftPadded(4)))")
        }
        return s
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ name: String, _: E.Type) throws(EventError) -> E where E.RawValue == String {
        let v = try required(name)
        guard case .string(let s) = v else { throw error(name, "must be a string, not \(v.referenceTypeName)") }
        guard let e = E(rawValue: s) else {
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw error(name, "must be one of \(allowed) (got \"\(s)\")")
        }
        return e
    }

    // MARK: numbers and booleans

    func integer(_ name: String, min: Int? = nil) throws(EventError) -> Int {
        try checkInteger(name, try required(name), min: min)
    }

    func optionalInteger(_ name: String, min: Int? = nil) throws(EventError) -> Int? {
        guard let v = optional(name) else { return nil }
        return try checkInteger(name, v, min: min)
    }

    func checkInteger(_ name: String, _ v: JSONValue, min: Int?) throws(EventError) -> Int {
        let what = min == 0 ? "a count (an integer >= 0)" : min.map { "an integer >= \($0)" } ?? "an integer"
        guard case .number(let literal) = v else { throw error(name, "must be \(what), not \(v.referenceTypeName)") }
        guard !literal.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
            throw error(name, "must be \(what) with no fraction or exponent (got \(literal.referencePrefix))")
        }
        guard let n = Int(literal) else { throw error(name, "is out of range (got \(literal.referencePrefix))") }
        if let min, n < min { throw error(name, "must be \(what) (got \(n))") }
        return n
    }

    func bool(_ name: String) throws(EventError) -> Bool {
        let v = try required(name)
        guard case .bool(let b) = v else { throw error(name, "must be true or false, not \(v.referenceTypeName)") }
        return b
    }

    func optionalBool(_ name: String) throws(EventError) -> Bool? {
        guard let v = optional(name) else { return nil }
        guard case .bool(let b) = v else { throw error(name, "must be true or false, not \(v.referenceTypeName)") }
        return b
    }

    /// The members not in `known`, in written order.
    func extra(known: Set<String>) -> [JSONMember] {
        members.filter { !known.contains($0.name) }
    }
}

extension JSONValue {
    /// The JSON type's name, for messages.
    var referenceTypeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension String {
    /// At most 40 characters of the string, for messages.
    var referencePrefix: String { count > 40 ? String(prefix(40)) + "…" : self }

    func referenceLeftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
