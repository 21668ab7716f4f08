import Events

/// Folds a log, in order, into one learner's audit timeline: every line of
/// the user, in log order (never re-sorted), each as an ``AuditEntry``.
///
/// The attempt rules and anomalies come from the projections `state` uses
/// (`AttemptsBook`, `HintsProjection`, `AnomaliesProjection`), so the
/// audit and the state always agree. Entries are produced one at a time, so a
/// timeline of any length streams.
public struct AuditTimeline: Sendable {
    private let user: String
    private let from: Day?
    private let to: Day?
    private var book = AttemptsBook()
    private var hints = Hints()
    /// The daily streak's active days, grants and pauses (for `freeze_overflow`).
    private var streak = StreakFold(mode: .daily)
    /// The latest `at` among the user's earlier lines, and its `seq`.
    private var latest: (instant: Instant, seq: Int)?
    /// The attempt of the previous entry, so answers name theirs only when it changes.
    private var lastAttempt: String?

    /// A timeline of `user` (exact match), keeping the entries whose learner
    /// day is within `from` ... `to` (each bound optional).
    public init(user: String, from: Day? = nil, to: Day? = nil) {
        self.user = user; self.from = from; self.to = to
    }

    /// Folds the next record of the log; returns its entry when it is the
    /// user's and within the days asked for.
    ///
    /// Every line of the user is folded, whatever the range, so balances,
    /// attempts and "recorded late" are as of the whole log before it.
    public mutating func add(_ record: Record) -> AuditEntry? {
        switch record {
        case .event(let envelope):
            guard CodePoint.equal(envelope.user, user) else { return nil }
            return entry(for: envelope)
        case .newer(let line):
            // A newer line of this user, or one whose user cannot be read (it may be this user's), as in `state`.
            if let owner = line.user, !CodePoint.equal(owner, user) { return nil }
            var anomalies: [Anomaly] = []
            AnomaliesProjection.reduce(into: &anomalies, newer: line)
            guard from == nil && to == nil else { return nil }
            return AuditEntry(seq: line.seq, id: line.id, day: nil, at: nil, device: nil, type: line.type,
                              attempt: nil, summary: "a line of format version \(line.version), skipped",
                              late: nil, anomalies: anomalies, reset: nil)
        }
    }

    private mutating func entry(for envelope: Envelope) -> AuditEntry? {
        let step = book.apply(envelope)
        let balanceBefore = hints.balance
        var anomalies = step.anomalies
        if let overdraw = HintsProjection.reduce(into: &hints, step) { anomalies.append(overdraw) }
        streak.reduce(step)
        if case .freezeGranted = step.effect {
            // As of the log so far (as every column of the audit), in the daily streak.
            let walk = streak.walk(through: step.day, today: nil)
            anomalies += walk.overflows.filter { $0.seq == step.seq }.map(AnomaliesProjection.anomaly)
        }
        var late: AuditEntry.Late?
        if let latest, envelope.at.instant < latest.instant {
            late = AuditEntry.Late(afterSeq: latest.seq, by: envelope.at.instant.duration(to: latest.instant))
        } else {
            latest = (envelope.at.instant, envelope.seq)
        }
        if let from, step.day < from { return nil }
        if let to, step.day > to { return nil }
        let attempt = envelope.event.attempt
        let summary = AuditSummary.describe(step, showAttempt: attempt != lastAttempt,
                                            balance: (balanceBefore, hints.balance))
        lastAttempt = attempt ?? lastAttempt
        var reset: ProgressReset.Scope?
        if case .reset(let scope) = step.effect { reset = scope }
        return AuditEntry(seq: envelope.seq, id: envelope.id, day: step.day, at: envelope.at, device: envelope.device,
                          type: envelope.event.type.rawValue, attempt: attempt, summary: summary, late: late,
                          anomalies: anomalies, reset: reset)
    }
}
