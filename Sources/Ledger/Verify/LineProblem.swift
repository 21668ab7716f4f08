import Events

/// A problem in a log at a line: what `verify` prints as `line K: KIND: detail`.
public struct LineProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem, named as `verify` prints them.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An empty line.
        case blankLine = "blank_line"
        /// A line over 1 MiB.
        case lineTooLong = "line_too_long"
        /// A CR in a line.
        case lineEnding = "line_ending"
        /// A BOM or invalid UTF-8.
        case encoding
        /// Not JSON.
        case notJSON = "not_json"
        /// A member name twice in one object.
        case duplicateMember = "duplicate_member"
        /// JSON but not an object.
        case notObject = "not_object"
        /// An envelope member missing or breaking its rule.
        case invalidEnvelope = "invalid_envelope"
        /// A wrong `seq` (a gap, a repeat, a swap).
        case seqGap = "seq_gap"
        /// A line that does not hash to the head an auditor kept, or is missing.
        case headMismatch = "head_mismatch"
        /// A `prev` that is not the SHA-256 of the previous line.
        case brokenChain = "broken_chain"
        /// A type's `data` member breaking its rule.
        case invalidData = "invalid_data"
        /// An `id` already used by an earlier line.
        case duplicateID = "duplicate_id"
        /// Bytes after the last LF (a warning, not an error).
        case tornTail = "torn_tail"

        /// The problem kind of a line-level format error.
        public init(_ kind: EventError.Kind) {
            switch kind {
            case .blankLine: self = .blankLine
            case .lineTooLong: self = .lineTooLong
            case .lineEnding: self = .lineEnding
            case .encoding: self = .encoding
            case .notJSON: self = .notJSON
            case .duplicateMember: self = .duplicateMember
            case .notObject: self = .notObject
            case .invalidEnvelope: self = .invalidEnvelope
            case .invalidData: self = .invalidData
            }
        }
    }

    /// The 1-based line number.
    public var line: Int
    /// The kind of problem.
    public var kind: Kind
    /// What is wrong, for a person (for format errors: `member: rule`).
    public var detail: String

    /// Makes a problem.
    public init(line: Int, kind: Kind, _ detail: String) {
        self.line = line; self.kind = kind; self.detail = detail
    }

    /// The problem of a line that breaks the format by itself.
    public init(line: Int, _ error: EventError) {
        self.init(line: line, kind: Kind(error.kind), error.message)
    }

    /// `line K: KIND: detail`.
    public var description: String { "line \(line): \(kind.rawValue): \(detail)" }
}
