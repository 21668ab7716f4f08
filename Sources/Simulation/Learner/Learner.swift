import Events

/// One simulated learner: traits drawn once from the seed, and what they carry
/// from one day to the next (skill, hint balance, counters).
struct Learner: Sendable {
    /// A few days spent in another time zone.
    struct Trip: Sendable {
        let first: Int
        let days: Int
        let zone: Zone
        func covers(_ dayIndex: Int) -> Bool { dayIndex >= first && dayIndex < first + days }
    }

    let index: Int
    let id: String
    let home: Zone
    let trip: Trip?
    /// The first and one-past-last simulated day the learner uses the app.
    let joinDay: Int, leaveDay: Int
    /// Chance to open the app on a weekday.
    let diligence: Double
    /// Local hour of the first session of a day.
    let startHour: Int
    /// Chance to take the daily quiz just before midnight.
    let nightOwl: Double
    /// Chance to want a hint on a question.
    let hintAppetite: Double
    /// Chance that an evening session runs on an offline tablet, synced hours later.
    let offlineTendency: Double
    /// Chance of a device glitch per opportunity (double taps, lost or stale events).
    let quirkRate: Double
    /// The day the learner clears progress, if ever, and what.
    let reset: (day: Int, scope: ProgressReset.Scope)?
    /// Fraction digits the learner's phone writes in `at`.
    let fractionDigits: Int
    /// The first learner: shows every feature in the first days of any demo.
    let showcase: Bool
    /// Whether the learner takes the review quiz their plan asks each day they use the app.
    let followsPlan: Bool

    /// Chance to answer a question of each skill right on first sight; grows with practice.
    var ability: [String: Double]
    /// What the learner remembers of each bank item they have seen (``ForgettingCurve``).
    var memory: [String: ItemMemory] = [:]
    /// The app's review plan over their own events, for a learner who follows it.
    var plan: PlanKeeping?
    /// The items of the review quizzes they took, by quiz id.
    var reviewQuizzes: [String: [String]] = [:]
    var hintBalance = 0
    var attemptCount = 0
    var eventCount = 0
    var dailyFinished = 0
    var rewarded = 0
    var seeded = false
    /// Streak freezes and pauses (`Learner+Streak.swift`).
    var streak = StreakKeeping()
    var diagnosed: Set<String> = []
    /// The latest attempt started, for a glitch that reuses its id, and the
    /// quiz of its first recorded start (nil while none was recorded).
    var lastAttempt: (id: String, quiz: String?)?

    init(index: Int, users: Int, days: Int, seed: UInt64) {
        var rng = SeededGenerator(seed: seed, streams: UInt64(index), UInt64.max)
        self.index = index
        self.showcase = index == 0
        let width = max(3, String(users).count)
        self.id = "u-" + Day.pad(index + 1, width)
        let home = showcase ? Zone.riyadh : Learner.weightedHome(&rng)
        self.home = home
        if showcase {
            trip = Trip(first: 5, days: 4, zone: .losAngeles)
        } else if days > 3, rng.chance(0.15) {
            var away = Learner.weightedHome(&rng)
            if away == home { away = home == .tokyo ? .newYork : .tokyo }
            trip = Trip(first: rng.int(in: 1...(days - 2)), days: rng.int(in: 2...6), zone: away)
        } else {
            trip = nil
        }
        joinDay = showcase || !rng.chance(0.25) ? 0 : rng.below(max(1, days / 3))
        leaveDay = showcase || !rng.chance(0.12) ? days : min(days, joinDay + 2 + rng.below(max(1, days)))
        diligence = showcase ? 0.95 : rng.double(in: 0.45...0.95)
        startHour = showcase ? 8 : rng.pick([6, 7, 7, 8, 8, 9, 12, 13, 17, 18, 19, 20])
        nightOwl = rng.chance(0.15) ? 0.25 : 0.01
        hintAppetite = rng.double(in: 0...0.25)
        offlineTendency = showcase || rng.chance(0.3) ? 0.2 : 0
        quirkRate = rng.double(in: 0.002...0.015)
        if index == 2, days > 2 {
            // One learner in every demo clears their quiz progress half-way.
            reset = (days / 2, .quizzes)
        } else if days > 0, !showcase, rng.chance(0.06) {
            reset = (rng.int(in: 0...(days - 1)), rng.pick([.quizzes, .all, .puzzles, .submissions]))
        } else {
            reset = nil
        }
        fractionDigits = rng.pick([3, 3, 3, 0, 6])
        let base = showcase ? 0.74 : rng.double(in: 0.5...0.85)
        var ability: [String: Double] = [:]
        for category in Catalog.categories {
            for skill in category.skills {
                ability[skill] = min(0.97, max(0.2, base + rng.double(in: -0.2...0.15)))
            }
        }
        self.ability = ability
        // A stream of its own, so every other draw of the learner is what it was.
        var own = SeededGenerator(seed: seed, streams: UInt64(index), UInt64.max - 1)
        followsPlan = showcase || own.chance(0.4)
        plan = followsPlan ? PlanKeeping() : nil
    }

    private static func weightedHome(_ rng: inout SeededGenerator) -> Zone {
        let total = Zone.homes.reduce(0) { $0 + $1.weight }
        var ticket = rng.below(total)
        for (zone, weight) in Zone.homes {
            if ticket < weight { return zone }
            ticket -= weight
        }
        return .london
    }

    /// The zone the learner is in on a simulated day.
    func zone(on dayIndex: Int) -> Zone {
        if let trip, trip.covers(dayIndex) { return trip.zone }
        return home
    }

    /// A new attempt id, unique for this learner.
    mutating func newAttemptID() -> String {
        attemptCount += 1
        return "a-\(attemptCount)"
    }
}
