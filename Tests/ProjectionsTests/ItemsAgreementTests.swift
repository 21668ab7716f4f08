import Events
import Projections
import Simulation
import Testing

/// `ItemsBuilder`'s compact fold (numbered ids, running slots, sums as it
/// goes, learners dropped once folded) against ``ItemsModel`` (the learner
/// state's whole attempts, lists counted at the end) on seeded random logs
/// full of anomalies: reused and unknown attempt ids, answers and hints after
/// the end, second answers, travel across midnight, late syncs.
@Suite("items: the compact fold agrees with the model")
struct ItemsAgreementTests {
    /// The random log with answers that vary: choices 0...4, `ms` on two
    /// answers of three (a few past `UInt32.max`), from each line's seq.
    static func records(seed: UInt64, count: Int, options: RandomReportLog.Options? = nil) -> [Record] {
        RandomReportLog.make(seed: seed, count: count, options: options).map { record in
            guard case .event(var e) = record, case .answerSelected(var a) = e.event else { return record }
            a.choice = (e.seq &* 7) % 5
            a.ms = e.seq % 3 == 0 ? nil : (e.seq % 89 == 0 ? 5_000_000_000 + e.seq : (e.seq &* 7_919) % 60_000)
            e.event = .answerSelected(a)
            return .event(e)
        }
    }

    /// The learners folded one at a time into `workers` builders (as a
    /// ledger directory's learner logs are, without their users' names), merged.
    static func folded(_ records: [Record], from: Day?, to: Day?, workers: Int, seed: UInt64) throws -> ItemAnalysis {
        var rng = SplitMix64(seed: seed &* 11 &+ 3)
        var parts = (0..<workers).map { _ in ItemsBuilder(from: from, to: to) }
        for (k, learner) in ReportLearnerFoldTests.byLearner(records).shuffled(using: &rng).enumerated() {
            let lean = try learner.map(ReportLearnerFoldTests.lean)
            parts[k % workers].foldLearner { add in for record in lean { add(record) }; return "" }
        }
        var whole = ItemsBuilder(from: from, to: to)
        for part in parts { whole.merge(part) }
        return whole.analysis()
    }

    @Test("random logs, many ranges: record by record, and learner by learner over 1 to 3 builders, the model's analysis",
          arguments: Array(ReportAgreementTests.seeds.prefix(12)))
    func agreesWithModel(seed: UInt64) throws {
        let records = Self.records(seed: seed, count: 1_500)
        for (from, to) in ReportAgreementTests.ranges(records, seed: seed) {
            let reference = ItemsModel.analysis(records, from: from, to: to)
            var builder = ItemsBuilder(from: from, to: to)
            for record in records { builder.add(record) }
            let range = "seed \(seed), --from \(from?.description ?? "-") --to \(to?.description ?? "-")"
            #expect(builder.analysis() == reference, """
                \(range)
                fold:  \(String(decoding: builder.analysis().json, as: UTF8.self))
                model: \(String(decoding: reference.json, as: UTF8.self))
                """)
            for workers in 1...3 {
                #expect(try Self.folded(records, from: from, to: to, workers: workers, seed: seed) == reference, "\(range), \(workers) builders")
            }
        }
    }

    @Test("many learners, many events a day, ten or more finished attempts a question: discrimination and medians as the model's",
          arguments: [UInt64(5), 6, 7])
    func busyDays(seed: UInt64) throws {
        let options = RandomReportLog.Options(learners: 11, grantOnly: 1, bigQuestionCounts: false, meanGap: 20)
        let records = Self.records(seed: seed, count: 5_000, options: options)
        let reference = ItemsModel.analysis(records)
        #expect(reference.quizzes.contains { $0.questions.contains { $0.discrimination != nil } })
        var builder = ItemsBuilder()
        for record in records { builder.add(record) }
        #expect(builder.analysis() == reference)
        #expect(try Self.folded(records, from: nil, to: nil, workers: 2, seed: seed) == reference)
    }
}
