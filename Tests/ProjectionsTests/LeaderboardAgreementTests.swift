import Events
@testable import Projections
import Simulation
import Testing

/// `LeaderboardBuilder`'s compact fold (per learner two counts and the
/// streak days, learners reduced to their row once folded) against each
/// learner's whole state: a `LearnerProjector` per user, read as `state --day
/// LAST` shows them (the spec's definition of the leaderboard), on seeded
/// random logs full of anomalies and resets of every scope.
@Suite("leaderboard: the compact fold agrees with every learner's state")
struct LeaderboardAgreementTests {
    /// Every user's whole state fold, by their UTF-8 bytes, with their name.
    static func projectors(_ records: [Record]) -> [(name: String, projector: LearnerProjector)] {
        var learners: [[UInt8]: (name: String, projector: LearnerProjector)] = [:]
        for record in records {
            guard case .event(let e) = record else { continue }
            learners[Array(e.user.utf8), default: (e.user, LearnerProjector(options: StateOptions(user: e.user)))].projector.apply(record)
        }
        return Array(learners.values)
    }

    /// The rows from every user's state: finished attempts of the period that count, their mean percent, the streak at LAST.
    static func model(_ learners: [(name: String, projector: LearnerProjector)], period: Leaderboard.Period, on day: Day,
                      by measure: Leaderboard.Measure, excluding excluded: [String], top: Int?) -> [Leaderboard.Row] {
        let (first, last) = period.range(containing: day)
        let skip = Set(excluded.map { Array($0.utf8) })
        var rows: [Leaderboard.Row] = []
        for (name, projector) in learners where !skip.contains(Array(name.utf8)) {
            let counted = projector.book.attempts.filter {
                $0.isFinished && projector.book.counts($0) && $0.day >= first && $0.day <= last
            }
            var mean = ScoreMean()
            for attempt in counted { mean.add(score: attempt.score, questions: attempt.questions) }
            let value: Int?
            switch measure {
            case .finished: value = counted.isEmpty ? nil : counted.count
            case .percent: value = counted.count >= Leaderboard.minimumForPercent ? mean.percent : nil
            case .streak:
                let current = projector.state(day: last).streak.current
                value = current > 0 ? current : nil
            }
            if let value { rows.append(Leaderboard.Row(rank: 0, user: name, value: value, finished: counted.count)) }
        }
        rows.sort { $0.value != $1.value ? $0.value > $1.value : Array($0.user.utf8).lexicographicallyPrecedes(Array($1.user.utf8)) }
        // Standard competition ranks: 1 + how many listed learners have a higher value.
        for i in rows.indices { rows[i].rank = 1 + rows.filter { $0.value > rows[i].value }.count }
        return top.map { top in rows.filter { $0.rank <= top } } ?? rows
    }

    @Test("random logs, weeks and months over their days, every measure, exclusions and --top: every learner's state, record by record and learner by learner",
          arguments: Array(ReportAgreementTests.seeds.prefix(16)))
    func agreesWithState(seed: UInt64) throws {
        let records = RandomReportLog.make(seed: seed, count: 1_500)
        let days = records.compactMap { record -> Int? in if case .event(let e) = record { e.day.ordinal } else { nil } }
        guard let lo = days.min(), let hi = days.max() else { return }
        var rng = SplitMix64(seed: seed &* 13 &+ 5)
        let users = Array(Set(records.compactMap { record -> String? in if case .event(let e) = record { e.user } else { nil } })).sorted()
        let learners = Self.projectors(records)
        for _ in 0..<6 {
            let on = Day(ordinal: Int.random(in: (lo - 2)...(hi + 2), using: &rng))
            let period = Leaderboard.Period.allCases.randomElement(using: &rng) ?? .week
            var builder = LeaderboardBuilder(period: period, containing: on)
            for record in records { builder.add(record) }
            // Learner by learner, without their names in the records, over two builders, merged.
            var parts = [LeaderboardBuilder](repeating: LeaderboardBuilder(period: period, containing: on), count: 2)
            for (k, learner) in ReportLearnerFoldTests.byLearner(records).enumerated() {
                guard case .event(let first)? = learner.first else { continue }
                let lean = try learner.map(ReportLearnerFoldTests.lean)
                parts[k % 2].foldLearner { add in for record in lean { add(record) }; return first.user }
            }
            var merged = LeaderboardBuilder(period: period, containing: on)
            for part in parts { merged.merge(part) }
            for measure in Leaderboard.Measure.allCases {
                let excluded = users.filter { _ in Int.random(in: 0..<4, using: &rng) == 0 }
                let top: Int? = Bool.random(using: &rng) ? Int.random(in: 1...4, using: &rng) : nil
                let expected = Self.model(learners, period: period, on: on, by: measure, excluding: excluded, top: top)
                let what = "seed \(seed), \(period) of \(on), by \(measure), excluding \(excluded), top \(top.map(String.init) ?? "-")"
                #expect(builder.leaderboard(by: measure, excluding: excluded, top: top).rows == expected, "\(what)")
                #expect(merged.leaderboard(by: measure, excluding: excluded, top: top).rows == expected, "\(what), learner by learner")
            }
        }
    }
}
