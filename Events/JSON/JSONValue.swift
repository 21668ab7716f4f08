/// A JSON value as read from a line, members in their written order.
///
/// Numbers keep their literal text, so no precision is lost in a round trip
/// of members the ledger does not know.
public indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON literal (`12`, `-0.5`, `1e3`).
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in written order.
    case object([JSONMember])
}

/// One member of a JSON object: its name and value.
public struct JSONMember: Sendable, Hashable {
    /// The member name.
    public var name: String
    /// The member value.
    public var value: JSONValue

    /// Makes a member.
    public init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}
