import Events

/// Reading the JSON of the wire's answers: a member by its name (compared
/// by code points), an integer from its literal.
enum WireJSON {
    /// The value of the first member named `name`.
    static func member(_ name: String, of members: [JSONMember]) -> JSONValue? {
        members.first { CodePoint.equal($0.name, name) }?.value
    }

    /// A JSON number literal that is a non-negative integer of at most 18
    /// digits (what the server writes for a seq or a count); nil otherwise.
    static func integer(_ literal: String) -> Int? {
        guard !literal.isEmpty, literal.utf8.count <= 18, literal.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(literal)
    }
}
