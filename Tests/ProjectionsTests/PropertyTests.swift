import Events
import Projections
import Simulation
import Testing

@Suite("Properties over seeded random logs")
struct PropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 42, 2025, 0xDEAD_BEEF, 77, 1234]

    func options(_ user: String, retryLimit: Int = 1, streakOn: StreakMode = .daily, days: Int = 30) -> StateOptions {
        StateOptions(user: user, retryLimit: retryLimit, streakOn: streakOn, days: days,
                     catalog: Catalog(["inference": ["l-1", "c-1"], "vocab": ["l-2", "c-2", "c-3"], "logic": ["c-4"]]))
    }

    @Test("the generator is valid and varied: every line round-trips through the codec", arguments: seeds.prefix(2))
    func generatorIsValid(seed: UInt64) throws {
        let records = RandomLog.make(seed: seed, count: 400)
        for case .event(let envelope) in records {
            #expect(try LineCodec.decodeRecord(LineCodec.encode(envelope)) == .event(envelope))
        }
        let state = LearnerState(folding: records, options: options("u-1"))
        #expect(!state.quizzes.isEmpty && !state.anomalies.isEmpty && !state.studyPlan.categories.isEmpty)
    }

    @Test("live: folding a prefix, reading the state, then the rest equals folding all", arguments: seeds)
    func liveEqualsBatch(seed: UInt64) {
        let records = RandomLog.make(seed: seed, count: 600)
        var rng = SplitMix64(seed: seed)
        for user in RandomLog.users {
            let whole = LearnerState(folding: records, options: options(user, streakOn: .any))
            var projector = LearnerProjector(options: options(user, streakOn: .any))
            let cut = Int.random(in: 0...records.count, using: &rng)
            projector.apply(contentsOf: records[..<cut])
            _ = projector.state()                        // reading does not disturb the fold
            projector.apply(contentsOf: records[cut...])
            #expect(projector.state() == whole)
            // Every day of the log, live, equals a batch fold with --day.
            if let last = whole.day {
                for back in [0, 1, 2, 9, 40] {
                    let d = last.adding(days: -back)
                    var dayOptions = options(user, streakOn: .any)
                    dayOptions.day = d
                    #expect(projector.state(day: d) == LearnerState(folding: records, options: dayOptions))
                }
            }
        }
    }

    @Test("as-of N equals folding the first N lines", arguments: seeds)
    func asOfEqualsPrefix(seed: UInt64) {
        let records = RandomLog.make(seed: seed, count: 300)
        var rng = SplitMix64(seed: seed &+ 1)
        for _ in 0..<6 {
            let n = Int.random(in: 0...records.count, using: &rng)
            for user in RandomLog.users {
                var asOf = options(user)
                asOf.asOf = .seq(n)
                #expect(LearnerState(folding: records, options: asOf)
                        == LearnerState(folding: records.prefix(n), options: options(user)))
            }
        }
    }

    @Test("as-of a time equals folding only the events at or before it, in log order", arguments: seeds.prefix(4))
    func asOfTimeIsAFilter(seed: UInt64) {
        let records = RandomLog.make(seed: seed, count: 300)
        let stamps = records.compactMap { if case .event(let e) = $0 { e.at } else { nil } }
        var rng = SplitMix64(seed: seed &+ 2)
        for _ in 0..<4 {
            let cut = stamps[Int.random(in: 0..<stamps.count, using: &rng)]
            let kept = records.filter {
                switch $0 {
                case .event(let e): !(cut.instant < e.at.instant)
                case .newer: true
                }
            }
            var asOf = options("u-1")
            asOf.asOf = .time(cut)
            #expect(LearnerState(folding: records, options: asOf) == LearnerState(folding: kept, options: options("u-1")))
        }
    }

    @Test("output is identical across runs: same bytes from a fresh generator and a fresh fold", arguments: seeds)
    func deterministic(seed: UInt64) {
        for user in RandomLog.users {
            let a = LearnerState(folding: RandomLog.make(seed: seed, count: 500), options: options(user, retryLimit: 2, days: 7))
            let b = LearnerState(folding: RandomLog.make(seed: seed, count: 500), options: options(user, retryLimit: 2, days: 7))
            #expect(a.jsonBytes == b.jsonBytes)
            #expect(a.text == b.text)
        }
    }

    @Test("invariants: retries, percent bounds, streak bounds, sorted members, anomalies in log order", arguments: seeds)
    func invariants(seed: UInt64) {
        let records = RandomLog.make(seed: seed, count: 800)
        for user in RandomLog.users {
            let s = LearnerState(folding: records, options: options(user, streakOn: .any))
            #expect(s.dailyQuiz.retriesUsed == max(0, s.dailyQuiz.attempts - 1))
            #expect(s.dailyQuiz.nextQuestion == s.dailyQuiz.answered)
            #expect(s.streak.current <= s.streak.longest)
            #expect(s.streak.runs.map(\.days).reduce(0, +) >= s.streak.longest)
            #expect(s.anomalies.map(\.seq) == s.anomalies.map(\.seq).sorted())
            #expect(s.quizzes.map { Array($0.quiz.utf8) } == s.quizzes.map { Array($0.quiz.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
            #expect(s.history.map(\.day) == s.history.map(\.day).sorted(by: >))
            #expect(s.studyPlan.recommended.count <= 5)
            #expect(Set(s.studyPlan.recommended).count == s.studyPlan.recommended.count)
            for skill in s.studyPlan.categories.flatMap(\.skills) { #expect(skill.total >= 1 && skill.total <= 20) }
            #expect(s.hints.balance >= 0 && s.hints.used == s.hints.usedFiftyFifty + s.hints.usedReveal)
        }
    }
}
