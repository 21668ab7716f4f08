import Events

/// A problem in a log at a line: what `verify` prints as `line K: KIND: detail`.
public struct LineProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem: a line that breaks the format by itself (the
    /// Events layer's kinds), or one that breaks the chain of lines.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// The line by itself breaks the format (`blank_line`, `not_json`, `invalid_data`...).
        case format(EventError.Kind)
        /// A wrong `seq` (a gap, a repeat, a swap).
        case seqGap
        /// A line that does not hash to the head an auditor kept, or is missing.
        case headMismatch
        /// A `prev` that is not the SHA-256 of the previous line.
        case brokenChain
        /// An `id` already used by an earlier line.
        case duplicateID
        /// Bytes after the last LF (a warning, not an error).
        case tornTail
        /// An event of another learner in a ledger directory's learner log.
        case misrouted

        /// The kind's name as `verify` prints it (`seq_gap`, `not_json`...).
        public var rawValue: String {
            switch self {
            case .format(let kind): kind.rawValue
            case .seqGap: "seq_gap"
            case .headMismatch: "head_mismatch"
            case .brokenChain: "broken_chain"
            case .duplicateID: "duplicate_id"
            case .tornTail: "torn_tail"
            case .misrouted: "misrouted"
            }
        }

        /// The name.
        public var description: String { rawValue }
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
        self.init(line: line, kind: .format(error.kind), error.message)
    }

    /// `line K: KIND: detail`.
    public var description: String { "line \(line): \(kind.rawValue): \(detail)" }
}
