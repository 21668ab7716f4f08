import Events

/// One line of a learner's audit timeline: an event of the log as it was
/// recorded, the learner day it is grouped under, a readable summary, and the
/// marks an auditor needs (anomalies, recorded late).
public struct AuditEntry: Sendable, Hashable {
    /// An event whose `at` is earlier than that of an event of the same learner
    /// already in the log: it was recorded late (an offline device, a retry).
    public struct Late: Sendable, Hashable {
        /// The earlier line (in log order) with the latest `at` so far.
        public var afterSeq: Int
        /// How much earlier this event happened than that one.
        public var by: ExactSeconds
    }

    /// The line's `seq`.
    public var seq: Int
    /// Its `id`.
    public var id: String
    /// The learner day it is grouped under: its attempt's start day for quiz
    /// events, else its own day; nil for a newer-version line (no readable `at`).
    public var day: Day?
    /// Its `at`; nil for a newer-version line.
    public var at: Timestamp?
    /// Its `device`, if any.
    public var device: String?
    /// Its `type` as written (nil if a newer-version line has none).
    public var type: String?
    /// The attempt it names, if any.
    public var attempt: String?
    /// What happened, for a person: `q2 → choice 1 ✓ inference`.
    public var summary: String
    /// Set when the event was recorded late.
    public var late: Late?
    /// The anomalies this event carries, in the spec's order.
    public var anomalies: [Anomaly]
    /// The scope of a `progress.reset`.
    public var reset: ProgressReset.Scope?
}
