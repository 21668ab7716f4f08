import Events

/// What `state` computes: for which user, which day, as of which event, and the
/// knobs of the daily quiz, streak, history, study plan and review schedule.
public struct StateOptions: Sendable, Hashable {
    /// The learner; events of other users are skipped (exact match, no normalisation).
    public var user: String
    /// Day D; nil for the day of the user's latest event (by instant).
    public var day: Day?
    /// Keep only events up to a `seq` or an instant; nil keeps all.
    public var asOf: AsOf?
    /// Retries allowed for the daily quiz (default 1); negative counts as 0.
    public var retryLimit: Int
    /// Which days count for the streak (default daily).
    public var streakOn: StreakMode
    /// History window in days ending at D (default 30); less than 1 counts as 1.
    public var days: Int
    /// Content ids per skill for the study plan's recommendations; nil for none.
    public var catalog: Catalog?
    /// How the items to review are scheduled (`--retention`, `--fsrs-params`;
    /// default: FSRS-6's parameters, retention 0.9).
    public var scheduler: FSRSScheduler
    /// At most this many reviews a day (`--budget`, ``ReviewPlan``; default
    /// ``ReviewPlan/defaultBudget``); nil for every due item.
    public var reviewBudget: Int? = ReviewPlan.defaultBudget

    /// Makes options; only `user` is required.
    public init(user: String, day: Day? = nil, asOf: AsOf? = nil, retryLimit: Int = 1,
                streakOn: StreakMode = .daily, days: Int = 30, catalog: Catalog? = nil,
                scheduler: FSRSScheduler = .standard) {
        self.user = user; self.day = day; self.asOf = asOf; self.retryLimit = retryLimit
        self.streakOn = streakOn; self.days = days; self.catalog = catalog; self.scheduler = scheduler
    }
}
