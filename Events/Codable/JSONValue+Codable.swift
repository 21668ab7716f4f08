/// A JSON value is coded as the JSON it is: `null`, `true`, `12.75`, `"x"`,
/// `[...]`, `{...}`, so a `JSONEncoder` writes the value itself.
///
/// Numbers: an integer literal goes through `Int64` (or `UInt64`), any other
/// through `Double`, so `12.75` stays `12.75` but `1e3` reads back as `1000`
/// and digits beyond a `Double`'s are rounded (the ledger's own codec keeps
/// every literal as written). Object members keep the order the decoder gives.
extension JSONValue: Codable {
    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let b = try? single.decode(Bool.self) { self = .bool(b); return }
            if let n = try? single.decode(Int64.self) { self = .number(String(n)); return }
            if let n = try? single.decode(UInt64.self) { self = .number(String(n)); return }
            if let d = try? single.decode(Double.self) { self = .number(JSONValue.literal(d)); return }
            if let s = try? single.decode(String.self) { self = .string(s); return }
        }
        if var items = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !items.isAtEnd { values.append(try items.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        let object = try decoder.container(keyedBy: MemberKey.self)
        self = .object(try object.allKeys.map { key in JSONMember(key.stringValue, try object.decode(JSONValue.self, forKey: key)) })
    }

    /// Writes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .number(let literal):
            var c = encoder.singleValueContainer()
            if let n = Int64(literal) { try c.encode(n) }
            else if let n = UInt64(literal) { try c.encode(n) }
            else if let d = Double(literal), d.isFinite { try c.encode(d) }
            else {
                throw EncodingError.invalidValue(literal, .init(codingPath: encoder.codingPath,
                                                                debugDescription: "\(literal.debugDescription) is not a finite JSON number"))
            }
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let members):
            var c = encoder.container(keyedBy: MemberKey.self)
            for m in members { try c.encode(m.value, forKey: MemberKey(m.name)) }
        }
    }

    /// The JSON literal of a decoded `Double`: an integral value without a fraction.
    private static func literal(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }
}

/// A member is coded as a one-member object `{ name: value }`.
extension JSONMember: Codable {
    /// Reads a one-member object.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: MemberKey.self)
        guard c.allKeys.count == 1, let key = c.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a member is an object with one member"))
        }
        self.init(key.stringValue, try c.decode(JSONValue.self, forKey: key))
    }

    /// Writes `{ name: value }`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: MemberKey.self)
        try c.encode(value, forKey: MemberKey(name))
    }
}

/// Any member name as a coding key.
struct MemberKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
