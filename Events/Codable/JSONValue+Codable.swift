/// A JSON value the ledger keeps unread (an unknown member) is stored
/// losslessly as `[kind, value]`: `["null"]`, `["bool", true]`,
/// `["number", "1e3"]` (the literal, so no precision is lost),
/// `["string", "x"]`, `["array", [...]]`, `["object", [members...]]`.
extension JSONValue: Codable {
    /// Reads `[kind, value]`; an unknown kind is a `dataCorrupted` error.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let kind = try container.decode(String.self)
        switch kind {
        case "null": self = .null
        case "bool": self = .bool(try container.decode(Bool.self))
        case "number": self = .number(try container.decode(String.self))
        case "string": self = .string(try container.decode(String.self))
        case "array": self = .array(try container.decode([JSONValue].self))
        case "object": self = .object(try container.decode([JSONMember].self))
        default:
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown JSON value kind \(kind.debugDescription)")
        }
    }

    /// Writes `[kind, value]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .null: try container.encode("null")
        case .bool(let b): try container.encode("bool"); try container.encode(b)
        case .number(let literal): try container.encode("number"); try container.encode(literal)
        case .string(let s): try container.encode("string"); try container.encode(s)
        case .array(let items): try container.encode("array"); try container.encode(items)
        case .object(let members): try container.encode("object"); try container.encode(members)
        }
    }
}

/// A member is stored as `{ "name", "value" }`.
extension JSONMember: Codable {
    private enum CodingKeys: String, CodingKey { case name, value }

    /// Reads the name and value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(String.self, forKey: .name), try container.decode(JSONValue.self, forKey: .value))
    }

    /// Writes the name and value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(value, forKey: .value)
    }
}
