import Events
import Projections
import Simulation
import Testing

/// `ReportBuilder.foldLearner`, the fold of a ledger directory: each
/// learner's records folded on their own (as a learner log holds them), the
/// learner then reduced to the last run of their streak days, the partial
/// builders merged. Checked against ``ReportModel`` (written from the spec,
/// every learner's days kept to the end) on seeded random logs full of
/// anomalies and resets, over many `--from`/`--to` ranges.
@Suite("report: learners folded one at a time agree with the model")
struct ReportLearnerFoldTests {
    /// Each user's records, in log order, by the user's UTF-8 bytes (users are
    /// compared exactly); users in the order first seen.
    static func byLearner(_ records: [Record]) -> [[Record]] {
        var order: [[UInt8]] = []
        var groups: [[UInt8]: [Record]] = [:]
        for record in records {
            guard case .event(let e) = record else { continue }    // newer-version lines count nowhere
            let user = Array(e.user.utf8)
            if groups[user] == nil { order.append(user) }
            groups[user, default: []].append(record)
        }
        return order.compactMap { groups[$0] }
    }

    /// The record as a learner log's reader hands it over: encoded, then read
    /// back by the codec without the envelope's strings (no user in it).
    static func lean(_ record: Record) throws -> Record {
        guard case .event(let e) = record else { return record }
        return try LineCodec.encode(e).withUnsafeBytes { try LineCodec.checkRecordKeepingData($0).record }
    }

    /// The learners folded one at a time into `workers` builders (learner k
    /// into builder k mod workers, in a shuffled order), merged.
    static func folded(_ learners: [[Record]], from: Day?, to: Day?, workers: Int, seed: UInt64) throws -> Report {
        var rng = SplitMix64(seed: seed &* 7 &+ 1)
        var parts = (0..<workers).map { _ in ReportBuilder(from: from, to: to) }
        for (k, learner) in learners.shuffled(using: &rng).enumerated() {
            let records = try learner.map(lean)
            parts[k % workers].foldLearner { add in for record in records { add(record) }; return "" }
        }
        var whole = ReportBuilder(from: from, to: to)
        for part in parts { whole.merge(part) }
        return whole.report()
    }

    @Test("random logs, many ranges, learners one at a time over 1 to 3 builders: the model's report",
          arguments: Array(ReportAgreementTests.seeds.prefix(24)))
    func agreesWithModel(seed: UInt64) throws {
        let records = RandomReportLog.make(seed: seed, count: 1_500)
        let learners = Self.byLearner(records)
        #expect(learners.count > 1)
        for (from, to) in ReportAgreementTests.ranges(records, seed: seed) {
            let reference = ReportModel.report(records, from: from, to: to)
            for workers in 1...3 {
                let report = try Self.folded(learners, from: from, to: to, workers: workers, seed: seed)
                #expect(report == reference, """
                    seed \(seed), \(workers) builders, --from \(from?.description ?? "-") --to \(to?.description ?? "-")
                    fold:  \(String(decoding: report.json, as: UTF8.self))
                    model: \(String(decoding: reference.json, as: UTF8.self))
                    """)
            }
        }
    }

    @Test("many learners, many events a day: the model's report", arguments: [UInt64(5), 6, 7])
    func busyDays(seed: UInt64) throws {
        let options = RandomReportLog.Options(learners: 11, grantOnly: 2, bigQuestionCounts: seed == 6, meanGap: 20)
        let records = RandomReportLog.make(seed: seed, count: 6_000, options: options)
        let learners = Self.byLearner(records)
        for (from, to) in ReportAgreementTests.ranges(records, seed: seed) {
            let report = try Self.folded(learners, from: from, to: to, workers: 2, seed: seed)
            #expect(report == ReportModel.report(records, from: from, to: to),
                    "seed \(seed), --from \(from?.description ?? "-") --to \(to?.description ?? "-")")
        }
    }

    @Test("learners folded one at a time after others added by name: the same report as all added by name")
    func mixed() throws {
        let records = RandomReportLog.make(seed: 31, count: 1_500)
        let learners = Self.byLearner(records)
        let half = learners.count / 2
        var builder = ReportBuilder()
        for record in learners[..<half].joined() { builder.add(record) }
        for learner in learners[half...] {
            let lean = try learner.map(Self.lean)
            builder.foldLearner { add in for record in lean { add(record) }; return "" }
        }
        #expect(builder.report() == ReportModel.report(records))
    }
}
