import Events

/// The learner's streak of active days at day D.
public struct Streak: Sendable, Hashable {
    /// A run: active days kept together by the day walk (projections.md,
    /// `streak`), across frozen and paused days.
    public struct Run: Sendable, Hashable {
        /// Its first active day.
        public var start: Day
        /// Its last active day (at most D).
        public var end: Day
        /// How many active days it has (frozen and paused days do not count).
        public var days: Int
        /// The days a freeze kept it alive, oldest first (up to D for the run going on).
        public var frozen: [Day]
        /// How many paused days it went on across (up to D for the run going on).
        public var paused: Int

        /// Makes a run of consecutive active days, from `start` to `end`, with no frozen or paused day.
        public init(start: Day, end: Day) {
            self.init(start: start, end: end, days: end.ordinal - start.ordinal + 1)
        }

        /// Makes a run.
        public init(start: Day, end: Day, days: Int, frozen: [Day] = [], paused: Int = 0) {
            self.start = start; self.end = end; self.days = days; self.frozen = frozen; self.paused = paused
        }
    }

    /// Streak freezes at D.
    public struct Freezes: Sendable, Hashable {
        /// Freezes in hand after D's grants and the days before D are judged (at most 2).
        public var held: Int
        /// The sum of the amounts of every grant up to D, before the cap.
        public var granted: Int
        /// Frozen days up to D.
        public var used: Int

        /// Makes the freezes' counts.
        public init(held: Int = 0, granted: Int = 0, used: Int = 0) {
            self.held = held; self.granted = granted; self.used = used
        }
    }

    /// The active days of the run going on at D (alive across D-1 if D is not
    /// active yet, and across frozen and paused days), else 0.
    public var current: Int
    /// Whether D is active.
    public var activeToday: Bool
    /// The most active days of any run up to D.
    public var longest: Int
    /// Every run up to D, oldest first; the run going on is counted up to D.
    public var runs: [Run]
    /// Freezes held, granted and used at D.
    public var freezes: Freezes

    /// Makes a streak.
    public init(current: Int = 0, activeToday: Bool = false, longest: Int = 0, runs: [Run] = [], freezes: Freezes = Freezes()) {
        self.current = current; self.activeToday = activeToday; self.longest = longest; self.runs = runs
        self.freezes = freezes
    }

    /// No active day.
    public static let none = Streak()

    /// The streak at `day` from a learner's active days and their freezes and
    /// pauses (days after `day` are ignored): the day walk of projections.md,
    /// ``StreakWalk``, through `day`, which is not over yet.
    ///
    /// This is the one streak rule: `state` uses it; the report's
    /// distribution, `streak_7` and the freeze anomalies take the same walk.
    package static func at(_ day: Day, activeDays: ActiveDays, grace: StreakGrace = StreakGrace()) -> Streak {
        StreakWalk.walked(activeDays, grace, through: day, today: day).streak(at: day)
    }
}
