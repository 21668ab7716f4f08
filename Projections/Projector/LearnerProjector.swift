import Events

/// Keeps one learner's state live: apply each record of the log as it is
/// read or appended, and ask for the state at any time, with no replay.
///
/// ```swift
/// var projector = LearnerProjector(options: StateOptions(user: "u-42"))
/// projector.apply(contentsOf: records)      // the log so far, in order
/// projector.apply(.event(appendedEnvelope))  // then each new event
/// let today = projector.state()              // D: the day of the latest event
/// let button = today.dailyQuiz.status        // .inProgress, answered 3 → "Continue (4/5)"
/// ```
///
/// Records of other users, records after ``StateOptions/asOf``, and records
/// whose `seq` is not after the last one applied (a replay) are skipped.
public struct LearnerProjector: Sendable {
    /// The options given at creation.
    public let options: StateOptions
    private var fold: LearnerFold
    private var lastSeq = 0

    /// Makes a projector with nothing folded yet.
    public init(options: StateOptions) {
        self.options = options
        self.fold = LearnerFold(streakOn: options.streakOn)
    }

    /// Folds one record of the log; records must come in log order.
    public mutating func apply(_ record: Record) {
        guard record.seq > lastSeq else { return }
        lastSeq = record.seq
        if let asOf = options.asOf, !asOf.keeps(record) { return }
        switch record {
        case .event(let envelope):
            guard CodePoint.equal(envelope.user, options.user) else { return }
            fold.reduce(envelope)
        case .newer(let line):
            // A newer line of this user, or one whose user cannot be read (it may be this user's).
            if let user = line.user, !CodePoint.equal(user, options.user) { return }
            fold.reduce(newer: line)
        }
    }

    /// Folds one event of the log.
    public mutating func apply(_ envelope: Envelope) { apply(.event(envelope)) }

    /// Folds records in log order.
    public mutating func apply<Records: Sequence<Record>>(contentsOf records: Records) {
        for record in records { apply(record) }
    }

    /// How many of the user's lines were kept (events and newer-version lines).
    public var keptCount: Int { fold.count }

    /// The default D: the day of the user's kept event of a known version with the latest instant; nil if none.
    public var latestDay: Day? { fold.latest.day }

    /// The attempt bookkeeping folded so far (for folds that read attempts by day, such as leaderboards).
    package var book: AttemptsBook { fold.book }

    /// Time spent as the stats count it, per day (for the dashboard).
    package var timeSpent: TimeSpent { fold.stats.time }

    /// The streak's day walk through `day` (nil: the state's D), with what
    /// `explain` and the dashboard show of its runs; nil without a day.
    package func streakWalk(day: Day? = nil) -> StreakWalk? { fold.streakWalk(day: day, options: options) }

    /// The learner's streak freezes granted and pauses (for the dashboard).
    package var streakGrace: StreakGrace { fold.streak.grace }

    /// The state at `day`; nil uses ``StateOptions/day``, else ``latestDay``.
    public func state(day: Day? = nil) -> LearnerState {
        fold.state(day: day, options: options)
    }
}
