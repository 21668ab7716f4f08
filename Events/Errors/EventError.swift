/// Why a line or an event breaks the format: a kind, the member and the rule.
///
/// The Events layer sees one line at a time, so it knows the byte offset in the
/// line but not the line number: the reader that has it adds it (see `line`).
public struct EventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, as `verify` names it.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An empty line.
        case blankLine = "blank_line"
        /// A line over 1 MiB (1,048,576 bytes, not counting its LF).
        case lineTooLong = "line_too_long"
        /// A CR in the line ending.
        case lineEnding = "line_ending"
        /// A BOM or invalid UTF-8.
        case encoding
        /// Not JSON.
        case notJSON = "not_json"
        /// A member name given twice in one object.
        case duplicateMember = "duplicate_member"
        /// JSON, but not an object.
        case notObject = "not_object"
        /// An envelope member is missing or breaks its rule.
        case invalidEnvelope = "invalid_envelope"
        /// A `data` member breaks its type's rule.
        case invalidData = "invalid_data"
    }

    /// The kind of problem.
    public var kind: Kind
    /// The member path, e.g. `data.answers[2].choice`; nil for whole-line problems.
    public var member: String?
    /// The rule broken, for a person.
    public var rule: String
    /// The byte offset in the line where the problem was found, when known.
    public var offset: Int?
    /// The 1-based line number, when the reader knows it.
    public var line: Int?

    /// Makes an error.
    package init(_ kind: Kind, member: String? = nil, _ rule: String, offset: Int? = nil, line: Int? = nil) {
        self.kind = kind; self.member = member; self.rule = rule; self.offset = offset; self.line = line
    }

    /// The same error, with the line number set.
    package func at(line: Int) -> EventError {
        var copy = self
        copy.line = line
        return copy
    }

    /// `member: rule`, or the rule alone for whole-line problems.
    public var message: String {
        if let member { return "\(member): \(rule)" }
        return rule
    }

    /// `line K: kind: member: rule`.
    public var description: String {
        (line.map { "line \($0): " } ?? "") + "\(kind.rawValue): \(message)"
    }
}
