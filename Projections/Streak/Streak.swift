import Events

/// The learner's streak of active days at day D.
public struct Streak: Sendable, Hashable {
    /// A run of consecutive active days.
    public struct Run: Sendable, Hashable {
        /// Its first day.
        public var start: Day
        /// Its last day (at most D).
        public var end: Day
        /// How many days, `end - start + 1`.
        public var days: Int { end.ordinal - start.ordinal + 1 }

        /// Makes a run from its first and last day.
        public init(start: Day, end: Day) { self.start = start; self.end = end }
    }

    /// Consecutive active days ending at D if D is active, else ending at D-1
    /// if D-1 is active (still alive today), else 0.
    public var current: Int
    /// Whether D is active.
    public var activeToday: Bool
    /// The longest run up to D.
    public var longest: Int
    /// Every run up to D, oldest first; a run across D ends at D.
    public var runs: [Run]

    /// Makes a streak.
    public init(current: Int = 0, activeToday: Bool = false, longest: Int = 0, runs: [Run] = []) {
        self.current = current; self.activeToday = activeToday; self.longest = longest; self.runs = runs
    }

    /// No active day.
    public static let none = Streak()

    /// The streak at `day` from a learner's active days (days after `day` are ignored).
    ///
    /// This is the one streak rule: `state` uses it, and so does the report for
    /// each user's streak at `--to`.
    package static func at(_ day: Day, activeDays: ActiveDays) -> Streak {
        let runs = activeDays.runs(through: day)
        var current = 0
        if let last = runs.last, last.end == day || last.end == day.adding(days: -1) { current = last.days }
        let longest = runs.map(\.days).max() ?? 0
        return Streak(current: current, activeToday: runs.last?.end == day, longest: longest, runs: runs)
    }
}
