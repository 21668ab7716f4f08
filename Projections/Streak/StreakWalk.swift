import Events

/// The streak's day walk (projections.md, `streak`): the one rule of runs,
/// freezes and pauses.
///
/// It judges the calendar days in order, from the first day with an active
/// day or a freeze grant, holding `held` (freezes in hand, at most 2) and the
/// run going on. On each day X:
///
/// 1. the freezes granted on X are added to `held`, up to 2; the rest are
///    lost (``overflows``, the `freeze_overflow` anomaly);
/// 2. if X is active, the run (or a new one, starting at X) counts X;
/// 3. else, if a pause covers X, the run, if any, goes on (a paused day);
/// 4. else, if X is today (D, not over yet), nothing happens;
/// 5. else, if a run goes on and a freeze is held, one is spent (a frozen
///    day, paid by the oldest freeze held);
/// 6. else the run, if any, has ended (at its last active day).
///
/// Without grants and pauses this is the version-1 rule: a run ends at the
/// first day without activity before D. While no run goes on, a day without
/// activity or grant changes nothing, so the walk goes straight to the next
/// such day: its cost grows with the learner's active days, grants and
/// paused days, not with the calendar.
///
/// `Streak.at` walks through D for `state`; `streak_7` walks each learner's
/// days so far; the freeze anomalies walk to the last grant; the report walks
/// each learner up to their last day with activity or a grant, keeps the walk
/// (``compacted()``) and finishes it at the report's last day.
package struct StreakWalk: Sendable, Hashable {
    /// The most freezes held at once.
    package static let cap = 2

    /// A run as the walk keeps it: the run, and what `explain` and the
    /// dashboard show of it.
    package struct Run: Sendable, Hashable {
        /// The run, as `state` prints it.
        package var run: Streak.Run
        /// For each frozen day (``Streak/Run/frozen``), the seq of the grant whose freeze it spent.
        package var payers: [Int] = []
        /// The paused days, oldest first.
        package var pausedDays: [Day] = []
    }

    /// A grant over the cap: its seq and how many of its freezes were lost.
    package struct Overflow: Sendable, Hashable {
        package var seq: Int
        package var lost: Int
    }

    // The inputs, consumed in day order.
    private var active: ActiveDays
    /// Grants by day, in log order within a day.
    private var grants: [StreakGrace.Grant]
    /// Pauses by their first day.
    private var pauses: [StreakGrace.Pause]
    private var nextActive = 0, nextGrant = 0, nextPause = 0
    /// The last day covered by the pauses that start on or before the last day judged.
    private var pausedThrough: Day?
    /// Whether frozen and paused days, payers and ended runs are kept (not in a compacted walk).
    private var traced = true

    /// The next day to judge; nil when no day can change anything any more.
    package private(set) var next: Day?
    /// The freezes in hand, oldest first, each as the seq of the grant it came from.
    package private(set) var held: [Int] = []
    /// The run going on after the last day judged.
    package private(set) var run: Run?
    /// The runs that ended, oldest first.
    package private(set) var ended: [Run] = []
    /// The sum of the amounts of the grants judged, before the cap.
    package private(set) var granted = 0
    /// The frozen days so far.
    package private(set) var used = 0
    /// The grants over the cap so far, in day order.
    package private(set) var overflows: [Overflow] = []

    /// A walk of these active days, grants and pauses, before its first day.
    package init(activeDays: ActiveDays, grace: StreakGrace) {
        active = activeDays
        grants = grace.grants.enumerated().sorted { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }.map(\.element)
        pauses = grace.pauses.sorted { ($0.from, $0.seq) < ($1.from, $1.seq) }
        next = StreakWalk.earliest(active.days.first, grants.first?.day)
    }

    /// The walk of these days, grants and pauses through `last` (see ``walk(through:today:)``).
    package static func walked(_ activeDays: ActiveDays, _ grace: StreakGrace, through last: Day, today: Day?) -> StreakWalk {
        var walk = StreakWalk(activeDays: activeDays, grace: grace)
        walk.walk(through: last, today: today)
        return walk
    }

    /// Judges every day not judged yet up to `last`, included; `today` (D) is
    /// not over (step 4); nil when every day is over.
    package mutating func walk(through last: Day, today: Day?) {
        while let x = next, x <= last {
            judge(x, today: today)
            next = run != nil ? x.adding(days: 1) : nextInputDay
        }
    }

    /// The streak at `day`, after ``walk(through:today:)`` through `day` with `today` `day`.
    package func streak(at day: Day) -> Streak {
        let runs = (ended + (run.map { [$0] } ?? [])).map(\.run)
        return Streak(current: run?.run.days ?? 0, activeToday: active.contains(day),
                      longest: runs.lazy.map(\.days).max() ?? 0, runs: runs,
                      freezes: Streak.Freezes(held: held.count, granted: granted, used: used))
    }

    /// The active days walked (all of them, but in a compacted walk).
    package var activeDays: ActiveDays { active }

    /// Every run so far, oldest first, with the run going on last.
    package var runs: [Run] { ended + (run.map { [$0] } ?? []) }

    /// The walk with only what judging the days from ``next`` on needs: the
    /// run going on (its active days), the number of freezes held, and the
    /// active days, grants and pauses not judged yet. Walks in the same state
    /// compact to equal values (the report counts learners by them).
    package func compacted() -> StreakWalk {
        var w = self
        w.traced = false
        w.ended = []
        w.held = held.map { _ in 0 }
        if let r = run { w.run = Run(run: Streak.Run(start: r.run.start, end: r.run.end, days: r.run.days)) }
        w.active = ActiveDays(active.days[nextActive...])
        w.grants = grants[nextGrant...].map { StreakGrace.Grant(day: $0.day, amount: $0.amount, seq: 0) }
        w.pauses = pauses[nextPause...].map { StreakGrace.Pause(from: $0.from, to: $0.to, seq: 0) }
        w.nextActive = 0; w.nextGrant = 0; w.nextPause = 0
        if let through = pausedThrough, let next, through < next { w.pausedThrough = nil }
        w.granted = 0; w.used = 0; w.overflows = []
        return w
    }

    /// Judges day `x` (steps 1 to 6).
    private mutating func judge(_ x: Day, today: Day?) {
        while nextGrant < grants.count, grants[nextGrant].day <= x {
            receive(grants[nextGrant])
            nextGrant += 1
        }
        while nextPause < pauses.count, pauses[nextPause].from <= x {
            pausedThrough = StreakWalk.latest(pausedThrough, pauses[nextPause].to)
            nextPause += 1
        }
        if nextActive < active.days.count, active.days[nextActive] <= x {
            nextActive += 1
            if var r = run {
                r.run.end = x
                r.run.days += 1
                run = r
            } else {
                run = Run(run: Streak.Run(start: x, end: x, days: 1))
            }
        } else if let through = pausedThrough, x <= through {
            if var r = run {
                r.run.paused += 1
                if traced { r.pausedDays.append(x) }
                run = r
            }
        } else if x == today {
            // Today is not over: a run without activity yet is still alive.
        } else if var r = run, !held.isEmpty {
            let payer = held.removeFirst()
            used += 1
            if traced {
                r.run.frozen.append(x)
                r.payers.append(payer)
            }
            run = r
        } else if let r = run {
            if traced { ended.append(r) }
            run = nil
        }
    }

    /// Step 1 for one grant.
    private mutating func receive(_ grant: StreakGrace.Grant) {
        let (sum, overflow) = granted.addingReportingOverflow(grant.amount)
        granted = overflow ? Int.max : sum
        let kept = min(grant.amount, StreakWalk.cap - held.count)
        held += repeatElement(grant.seq, count: kept)
        if grant.amount > kept { overflows.append(Overflow(seq: grant.seq, lost: grant.amount - kept)) }
    }

    /// The next day with an active day or a grant not judged yet.
    private var nextInputDay: Day? {
        StreakWalk.earliest(nextActive < active.days.count ? active.days[nextActive] : nil,
                            nextGrant < grants.count ? grants[nextGrant].day : nil)
    }

    private static func earliest(_ a: Day?, _ b: Day?) -> Day? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    private static func latest(_ a: Day?, _ b: Day) -> Day { a.map { max($0, b) } ?? b }
}
