import Events

extension Catalog {
    /// Parses a catalog file's bytes: a JSON object mapping each skill to a list
    /// of content ids (non-empty strings).
    ///
    /// Throws a ``CatalogError`` naming the line and column of bad JSON, or the
    /// member that has the wrong type.
    public init<Bytes: Collection<UInt8>>(json bytes: Bytes) throws(CatalogError) {
        let value: JSONValue
        do {
            value = try JSONDocument.parse(Array(bytes))
        } catch {
            throw CatalogError("not valid JSON: \(error.message)")
        }
        try self.init(json: value)
    }

    /// Makes a catalog from a parsed JSON value; throws when it is not an object
    /// whose members are lists of non-empty strings.
    public init(json value: JSONValue) throws(CatalogError) {
        guard case .object(let members) = value else {
            throw CatalogError("must be a JSON object mapping a skill to a list of content ids, not \(Self.typeName(value))")
        }
        var contents: [ExactString: [String]] = [:]
        for member in members {
            guard case .array(let items) = member.value else {
                throw CatalogError("member \(quoted(member.name)): must be a list of content ids (strings), not \(Self.typeName(member.value))")
            }
            var ids: [String] = []
            for (i, item) in items.enumerated() {
                guard case .string(let id) = item, !id.isEmpty else {
                    throw CatalogError("member \(quoted(member.name))[\(i)]: must be a non-empty string (a content id), not \(Self.typeName(item))")
                }
                ids.append(id)
            }
            contents[ExactString(member.name)] = ids
        }
        self.init(exact: contents)
    }

    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string(let s): s.isEmpty ? "an empty string" : "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// Why a catalog cannot be used.
public struct CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the member or the position.
    public var message: String

    /// Makes an error.
    public init(_ message: String) { self.message = message }

    /// `catalog: <message>`.
    public var description: String { "catalog: \(message)" }
}
