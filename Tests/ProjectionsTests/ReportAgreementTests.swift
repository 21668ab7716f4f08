import Events
import LedgerAnalytics
import Projections
import Simulation
import Testing

/// The report fold (`ReportBuilder`) against ``ReportModel``, a small model
/// written from the spec's wording with plain collections: on seeded random
/// logs full of anomalies, for many `--from`/`--to` ranges, both must give the
/// same report; and reading the report mid-fold changes nothing.
@Suite("report: the fold agrees with a small model of the spec")
struct ReportAgreementTests {
    static let seeds: [UInt64] = Array(1...40) + [0xDEAD_BEEF, 2025, 77_777]

    /// The fold's report and the model's for one range.
    static func reports(_ records: [Record], from: Day?, to: Day?) -> (lean: Report, reference: Report) {
        var lean = ReportBuilder(from: from, to: to)
        for record in records { lean.add(record) }
        return (lean.report(), ReportModel.report(records, from: from, to: to))
    }

    /// The ranges to try on a log: none, each bound alone, inside, around, before and after its days.
    static func ranges(_ records: [Record], seed: UInt64) -> [(from: Day?, to: Day?)] {
        let days = records.compactMap { record -> Int? in
            if case .event(let e) = record { return e.day.ordinal } else { return nil }
        }
        guard let lo = days.min(), let hi = days.max() else { return [(nil, nil), (Day(ordinal: 20_000), nil)] }
        var rng = SplitMix64(seed: seed &* 31)
        func day() -> Day { Day(ordinal: Int.random(in: (lo - 3)...(hi + 3), using: &rng)) }
        var ranges: [(Day?, Day?)] = [(nil, nil), (Day(ordinal: lo), Day(ordinal: hi)),
                                      (Day(ordinal: lo - 10), Day(ordinal: lo - 2)), (Day(ordinal: hi + 1), nil),
                                      (nil, Day(ordinal: lo - 1)), (Day(ordinal: hi), Day(ordinal: hi))]
        for _ in 0..<3 {
            let (a, b) = (day(), day())
            ranges.append((min(a, b), max(a, b)))
            ranges.append((day(), nil))
            ranges.append((nil, day()))
        }
        return ranges
    }

    @Test("random logs, many ranges: the same JSON", arguments: seeds)
    func sameJSON(seed: UInt64) {
        let records = RandomReportLog.make(seed: seed, count: 1_500)
        for (from, to) in Self.ranges(records, seed: seed) {
            let (lean, reference) = Self.reports(records, from: from, to: to)
            #expect(lean == reference, """
                seed \(seed), --from \(from?.description ?? "-") --to \(to?.description ?? "-")
                fold:  \(String(decoding: lean.json, as: UTF8.self))
                model: \(String(decoding: reference.json, as: UTF8.self))
                """)
        }
    }

    @Test("logs of many learners, many events a day: the same JSON", arguments: [UInt64(5), 6, 7])
    func busyDays(seed: UInt64) {
        let options = RandomReportLog.Options(learners: 11, grantOnly: 2, bigQuestionCounts: seed == 6, meanGap: 20)
        let records = RandomReportLog.make(seed: seed, count: 6_000, options: options)
        for (from, to) in Self.ranges(records, seed: seed) {
            let (lean, reference) = Self.reports(records, from: from, to: to)
            #expect(lean == reference, "seed \(seed), --from \(from?.description ?? "-") --to \(to?.description ?? "-")")
        }
    }

    @Test("fold a prefix, read the report, fold the rest: the report of the whole log", arguments: seeds.prefix(12))
    func readMidFold(seed: UInt64) {
        let records = RandomReportLog.make(seed: seed, count: 800)
        var rng = SplitMix64(seed: seed &+ 9)
        let cut = Int.random(in: 0...records.count, using: &rng)
        let to = Self.ranges(records, seed: seed).last?.to
        var lean = ReportBuilder(to: to)
        for record in records[..<cut] { lean.add(record) }
        #expect(lean.report() == ReportModel.report(Array(records[..<cut]), to: to))
        for record in records[cut...] { lean.add(record) }
        var whole = ReportBuilder(to: to)
        for record in records { whole.add(record) }
        #expect(lean.report() == whole.report())
        #expect(lean.report() == ReportModel.report(records, to: to))
    }

    @Test("ReportFold, on its own thread in batches of any size: the model's report", arguments: [1, 3, 512])
    func ownThread(batchSize: Int) {
        let records = RandomReportLog.make(seed: UInt64(batchSize) &+ 100, count: 2_000)
        let fold = ReportFold(batchSize: batchSize, batchesInFlight: 2)
        for record in records { fold.add(record) }
        #expect(fold.report() == ReportModel.report(records))
    }

    @Test("no record, or only newer-version lines: the same empty report")
    func empty() {
        let newer: [Record] = [.newer(NewerVersionLine(version: 3, seq: 1, id: "x", user: "u", prev: Envelope.genesis, type: nil))]
        for records in [[], newer] {
            for (from, to) in [(nil, nil), (Day("2025-01-01"), nil), (nil, Day("2025-01-01")), (Day("2025-01-01"), Day("2025-01-03"))] {
                let (lean, reference) = Self.reports(records, from: from, to: to)
                #expect(lean == reference)
            }
        }
    }

    /// The agreement above means something only if the logs hold what the rules
    /// distinguish: this counts, over the seeds, what the reference's attempts
    /// books say about the events, and what the reports print.
    @Test("the generated logs exercise every rule the report depends on")
    func logsAreVaried() {
        var anomalies: Set<Anomaly.Kind> = []
        var effects: Set<String> = []
        var crossedMidnight = 0, travelled = 0, grantOnlyUsers = 0, newer = 0, staleFinishes = 0
        var apartOnlyByForm = 0, overflowingDays = 0
        for seed in Self.seeds {
            let records = RandomReportLog.make(seed: seed, count: 1_500)
            var books: [[UInt8]: AttemptsBook] = [:]
            var offsets: [[UInt8]: Set<Int>] = [:]
            var acting: Set<[UInt8]> = [], granted: Set<[UInt8]> = []
            var denominators: [Day: (lcm: Int, overflow: Bool)] = [:]
            for record in records {
                guard case .event(let e) = record else { newer += 1; continue }
                let user = Array(e.user.utf8)
                let step = books[user, default: AttemptsBook()].apply(e)
                anomalies.formUnion(step.anomalies.map(\.kind))
                effects.insert("\(step.effect)".prefix { $0 != "(" }.description)
                if step.day != e.day { crossedMidnight += 1 }
                if case .finished(let attempt) = step.effect {
                    if !step.counts { staleFinishes += 1 }
                    var d = denominators[step.day] ?? (1, false)
                    if !d.overflow {
                        var (x, y) = (d.lcm, attempt.questions)
                        while y != 0 { (x, y) = (y, x % y) }
                        let (product, overflow) = d.lcm.multipliedReportingOverflow(by: attempt.questions / x)
                        d = overflow ? (d.lcm, true) : (product, false)
                    }
                    denominators[step.day] = d
                }
                offsets[user, default: []].insert(e.at.offsetMinutes)
                if [.hintsGranted, .streakFreezeGranted, .streakPaused].contains(e.event.type) { granted.insert(user) } else { acting.insert(user) }
            }
            travelled += offsets.values.filter { $0.count > 1 }.count
            grantOnlyUsers += granted.subtracting(acting).count
            overflowingDays += denominators.values.filter(\.overflow).count
            var builder = ReportBuilder()
            for record in records { builder.add(record) }
            let names = builder.report().skills.map(\.skill)
            apartOnlyByForm += Set(names.map { Array($0.utf8) }).count - Set(names).count
        }
        #expect(anomalies.isSuperset(of: [.unknownAttempt, .afterEnd, .duplicateAnswer, .duplicateAttempt]), "\(anomalies)")
        #expect(effects.isSuperset(of: ["started", "answered", "hinted", "finished", "abandoned", "puzzle", "submitted",
                                        "granted", "reset", "freezeGranted", "paused", "ignored"]), "\(effects)")
        #expect(crossedMidnight > 50 && travelled > 40 && grantOnlyUsers > 10 && newer > 100 && staleFinishes > 5,
                "\(crossedMidnight) \(travelled) \(grantOnlyUsers) \(newer) \(staleFinishes)")
        // Skills equal under Swift's == (canonical equivalence) but not the same scalars are separate rows.
        #expect(apartOnlyByForm > 5, "\(apartOnlyByForm)")
        // Days whose exact mean-score fraction cannot be kept in 64 bits (the double fallback).
        #expect(overflowingDays > 3, "\(overflowingDays)")
    }
}
