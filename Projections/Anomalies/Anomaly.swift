/// A semantic surprise in the log: a fact that happened on a device and that
/// the projections report instead of failing on.
public struct Anomaly: Sendable, Hashable {
    /// The kinds of anomaly, in the spec's names.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// An answer, hint, finish or abandon naming an attempt the user never started earlier.
        case unknownAttempt = "unknown_attempt"
        /// An answer, hint, finish or abandon after the attempt finished or was abandoned.
        case afterEnd = "after_end"
        /// A later answer to a question that already has one (the first counts).
        case duplicateAnswer = "duplicate_answer"
        /// A `quiz.started` reusing an attempt id (the second start is ignored).
        case duplicateAttempt = "duplicate_attempt"
        /// A third or later hint on one question of an attempt.
        case hintLimit = "hint_limit"
        /// A hint used at balance 0.
        case hintOverdraw = "hint_overdraw"
        /// A `streak.freeze_granted` whose amount went over the 2 freezes held; the excess is lost.
        case freezeOverflow = "freeze_overflow"
        /// A line of a newer format version, skipped.
        case newerVersion = "newer_version"

        /// The kind's name as printed.
        public var description: String { rawValue }
    }

    /// The `seq` of the line.
    public var seq: Int
    /// What kind.
    public var kind: Kind
    /// What happened, for a person.
    public var detail: String

    /// Makes an anomaly.
    public init(seq: Int, kind: Kind, detail: String) {
        self.seq = seq; self.kind = kind; self.detail = detail
    }
}
