import Events

/// The report's streak distribution before its last day is known: per
/// learner only what the streak's day walk still needs, counted by its value.
///
/// A learner's `current` streak at a day D on or after every one of their
/// streak days and grants depends only on the walk's state before their last
/// such day E (the run going on and its active days, the freezes held) and on
/// what comes from E on (E's activity and grants, the pauses covering days
/// from E): ``StreakWalk/compacted()``. The report's last day is on or after
/// every streak day and grant it folds (only days up to `--to` count; without
/// `--to` the last day is the last day of any event), so the distribution at
/// that day is found by finishing each compacted walk there, once per
/// distinct value, whatever the number of learners. The learners' names,
/// days and attempts can then be dropped as soon as each is finished (a
/// ledger directory's learner log), and memory is bounded by the days of the
/// report, not by its learners. Without grants and pauses the value is the
/// learner's last run of consecutive active days, as before version 2.
struct StreakEnds: Sendable {
    /// Learners by their compacted walk.
    private var counts: [StreakWalk: Int] = [:]

    /// No learner.
    init() {}

    /// Counts one learner (active in the report's range) with this streak.
    mutating func add(_ streak: StreakFold) {
        let days = streak.activeDays
        var walk = StreakWalk(activeDays: days, grace: streak.grace)
        if let last = [days.days.last, streak.grace.lastGrantDay].compactMap({ $0 }).max() {
            walk.walk(through: last.adding(days: -1), today: nil)
        }
        counts[walk.compacted(), default: 0] += 1
    }

    /// Adds another's learners (other learners).
    mutating func merge(_ other: StreakEnds) {
        for (walk, n) in other.counts { counts[walk, default: 0] += n }
    }

    /// How many learners have each current streak at `day`, which is on or
    /// after every streak day and grant counted; sorted by the streak.
    func distribution(at day: Day) -> [Report.StreakBucket] {
        var buckets: [Int: Int] = [:]
        for (walk, n) in counts {
            var w = walk
            w.walk(through: day, today: day)
            buckets[w.streak(at: day).current, default: 0] += n
        }
        return buckets.sorted { $0.key < $1.key }.map { Report.StreakBucket(current: $0.key, users: $0.value) }
    }
}
