import Events
@testable import Projections
import Simulation
import Testing

/// `Streak.at` and the report's compacted walk against a plain reading of
/// projections.md's day walk: every calendar day from the first active or
/// grant day to D in turn, steps 1 to 6 as the spec words them, with plain
/// integers and sets (no jumps over quiet days, no cursors, no compaction).
@Suite("The streak's day walk against a day-by-day model")
struct StreakWalkModelTests {
    struct Calendar {
        var active: Set<Int> = []
        var grants: [(day: Int, amount: Int, seq: Int)] = []
        var pauses: [ClosedRange<Int>] = []
    }

    /// The spec's walk, day by day, to `d`.
    static func model(_ c: Calendar, at d: Int) -> (streak: Streak, overflows: [Int: Int]) {
        var held = 0, granted = 0, used = 0
        var run: Streak.Run? = nil
        var runs: [Streak.Run] = []
        var overflows: [Int: Int] = [:]
        let first = (Array(c.active) + c.grants.map(\.day)).min() ?? d + 1
        var x = first
        while x <= d {
            for g in c.grants where g.day == x {
                granted += g.amount
                let kept = min(g.amount, 2 - held)
                held += kept
                if kept < g.amount { overflows[g.seq] = g.amount - kept }
            }
            let day = Day(ordinal: x)
            if c.active.contains(x) {
                if run == nil { run = Streak.Run(start: day, end: day, days: 0) }
                run?.end = day
                run?.days += 1
            } else if c.pauses.contains(where: { $0.contains(x) }) {
                run?.paused += 1
            } else if x == d {
                // today
            } else if run != nil, held > 0 {
                held -= 1
                used += 1
                run?.frozen.append(day)
            } else if let r = run {
                runs.append(r)
                run = nil
            }
            x += 1
        }
        let all = runs + (run.map { [$0] } ?? [])
        return (Streak(current: run?.days ?? 0, activeToday: c.active.contains(d), longest: all.map(\.days).max() ?? 0,
                       runs: all, freezes: Streak.Freezes(held: held, granted: granted, used: used)), overflows)
    }

    static func random(_ g: inout SplitMix64) -> Calendar {
        var c = Calendar()
        let span = Int.random(in: 5...60, using: &g)
        let density = Double.random(in: 0.2...0.95, using: &g)
        for x in 0..<span where Double.random(in: 0..<1, using: &g) < density { c.active.insert(x) }
        for seq in 0..<Int.random(in: 0...6, using: &g) {
            c.grants.append((Int.random(in: -3...span, using: &g), Int.random(in: 1...3, using: &g), seq))
        }
        for _ in 0..<Int.random(in: 0...3, using: &g) {
            let from = Int.random(in: 0...span, using: &g)
            c.pauses.append(from...(from + Int.random(in: 0...9, using: &g)))
        }
        return c
    }

    static func inputs(_ c: Calendar) -> (ActiveDays, StreakGrace) {
        var grace = StreakGrace()
        for g in c.grants {
            grace.add(.streakFreezeGranted(StreakFreezeGranted(amount: g.amount, reason: .grant)), on: Day(ordinal: g.day), seq: g.seq)
        }
        for (k, p) in c.pauses.enumerated() {
            grace.add(.streakPaused(StreakPaused(from: Day(ordinal: p.lowerBound), to: Day(ordinal: p.upperBound))),
                      on: Day(ordinal: p.lowerBound), seq: 100 + k)
        }
        return (ActiveDays(c.active.map(Day.init(ordinal:))), grace)
    }

    @Test("Streak.at equals the model at every D; the overflows of the walk to the last grant equal the model's",
          arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func streakAt(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        var frozen = 0, paused = 0, overflowed = 0
        for _ in 0..<150 {
            let c = Self.random(&g)
            let (active, grace) = Self.inputs(c)
            for d in -2...70 {
                let expected = Self.model(c, at: d).streak
                #expect(Streak.at(Day(ordinal: d), activeDays: active, grace: grace) == expected, "D \(d)")
                frozen += expected.freezes.used
                paused += expected.runs.reduce(0) { $0 + $1.paused }
            }
            if let last = c.grants.map(\.day).max() {
                let walked = StreakWalk.walked(active, grace, through: Day(ordinal: last), today: nil).overflows
                let expected = Self.model(c, at: last + 1).overflows
                #expect(Dictionary(uniqueKeysWithValues: walked.map { ($0.seq, $0.lost) }) == expected)
                overflowed += expected.count
            }
        }
        #expect(frozen > 100 && paused > 100 && overflowed > 20, "\(frozen) \(paused) \(overflowed)")
    }

    @Test("the report's compacted walk, finished at any day after the learner's last day, gives the model's current",
          arguments: [7, 8] as [UInt64])
    func compacted(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let c = Self.random(&g)
            let (active, grace) = Self.inputs(c)
            guard let last = (Array(c.active) + c.grants.map(\.day)).max() else { continue }
            var walk = StreakWalk(activeDays: active, grace: grace)
            walk.walk(through: Day(ordinal: last - 1), today: nil)
            let key = walk.compacted()
            for d in last...(last + 12) {
                var w = key
                w.walk(through: Day(ordinal: d), today: Day(ordinal: d))
                #expect(w.streak(at: Day(ordinal: d)).current == Self.model(c, at: d).streak.current, "D \(d)")
            }
        }
    }
}
