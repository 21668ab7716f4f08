import Events

/// The report's streak distribution before its last day is known: per
/// learner only the last run of streak days, counted by run.
///
/// A learner's `current` streak at a day D on or after every one of their
/// streak days depends on their last run alone: ``Streak/at(_:activeDays:)``
/// cuts the days into runs up to D, and `current` is read from the last run
/// (whether it ends at D or D-1, and its length). The report's last day is on
/// or after every streak day it folds (only days up to `--to` are streak
/// days; without `--to` the last day is the last day of any event), so the
/// distribution at that day is found from these runs by ``Streak/at(_:activeDays:)``
/// itself, once per distinct run, whatever the number of learners. The
/// learners' names, days and attempts can then be dropped as soon as each is
/// finished (a ledger directory's learner log), and memory is bounded by the
/// days of the report, not by its learners.
struct StreakEnds: Sendable {
    /// Learners by their last run of streak days; nil for none.
    private var counts: [Streak.Run?: Int] = [:]

    /// No learner.
    init() {}

    /// Counts one learner (active in the report's range) with these streak days.
    mutating func add(_ days: ActiveDays) {
        var run: Streak.Run? = nil
        if let last = days.days.last, let (start, end) = days.run(containing: last) { run = Streak.Run(start: start, end: end) }
        counts[run, default: 0] += 1
    }

    /// Adds another's learners (other learners).
    mutating func merge(_ other: StreakEnds) {
        for (run, n) in other.counts { counts[run, default: 0] += n }
    }

    /// How many learners have each current streak at `day`, which is on or
    /// after every streak day counted; sorted by the streak.
    func distribution(at day: Day) -> [Report.StreakBucket] {
        var buckets: [Int: Int] = [:]
        for (run, n) in counts {
            let days = run.map { run in ActiveDays((0..<run.days).map { run.start.adding(days: $0) }) } ?? ActiveDays()
            buckets[Streak.at(day, activeDays: days).current, default: 0] += n
        }
        return buckets.sorted { $0.key < $1.key }.map { Report.StreakBucket(current: $0.key, users: $0.value) }
    }
}
