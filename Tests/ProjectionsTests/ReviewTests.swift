import Events
import Projections
import Testing

/// `state`'s `review` (docs/projections.md, "review"): FSRS-6 with py-fsrs's
/// default parameters, worked by hand on small logs.
///
/// The numbers come from the formulas of fsrs/scheduler.py evaluated one by
/// one (w = the 21 defaults, decay = -w20 = -0.1542, factor = 0.9^(1/decay) - 1
/// = 0.98034649441…):
///
/// - a new item rated r: S = w[r-1], D = w4 - e^(w5 (r-1)) + 1; so Again
///   0.212 / 6.4133, Hard 1.2931 / 5.11217070560…, Good 2.3065 / 2.11810397045…;
///   the interval is round(S) days at retention 0.9 (S / factor × (0.9^(1/decay) - 1)),
///   at least 1: Again 1, Hard 1, Good 2 (at 0.85: 1, 2, 4);
/// - Good, then Again two whole days later: R = (1 + factor·2/2.3065)^decay =
///   0.90949325597…, forget stability min(w11 D^-w12 ((S+1)^w13 - 1) e^((1-R) w14),
///   S / e^(w17 w18)) = min(0.60758010625…, 2.19516063046…), D = w7 D0(Easy) +
///   (1 - w7)(D + (10 - D)(2 w6)/9) = 7.39450274127…, 1 day;
/// - Good, then Again 2 hours later (the same day, under 24 h): the short-term
///   stability S e^(w17 (1 - 3 + w18)) S^-w19 = 0.77508398285…, D as above, 1 day;
/// - Again, then Good one day later: R = 0.76619573022…, recall stability
///   S (1 + e^w8 (11 - D) S^-w9 (e^((1-R) w10) - 1)) = 1.88678761952…,
///   D = 6.40211506929…, 2 days.
@Suite("review: FSRS-6 from the learner's answers")
struct ReviewTests {
    /// Relative closeness for doubles from another evaluation of the same formulas.
    private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(abs(a), abs(b)) }

    /// Expects `item` to be exactly `expected`, stability and difficulty to 1e-12.
    private func expect(_ item: ReviewItem?, _ expected: ReviewItem, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let item else {
            Issue.record("no item \(expected.kind) \(expected.source) \(expected.question)", sourceLocation: sourceLocation)
            return
        }
        #expect(close(item.stability, expected.stability), "stability \(item.stability) ≠ \(expected.stability)",
                sourceLocation: sourceLocation)
        #expect(close(item.difficulty, expected.difficulty), "difficulty \(item.difficulty) ≠ \(expected.difficulty)",
                sourceLocation: sourceLocation)
        var same = item
        same.stability = expected.stability
        same.difficulty = expected.difficulty
        #expect(same == expected, sourceLocation: sourceLocation)
    }

    private func item(_ source: String, _ question: String, kind: ReviewItem.Kind = .quiz, skill: String? = nil,
                      _ stability: Double, _ difficulty: Double, reviews: Int = 1, lapses: Int = 0,
                      last: String, due: String) -> ReviewItem {
        ReviewItem(kind: kind, source: source, question: question, skill: skill, stability: stability,
                   difficulty: difficulty, reviews: reviews, lapses: lapses, lastReview: stamp(last), due: stamp(due))
    }

    private func find(_ state: LearnerState, _ source: String, _ question: String) -> ReviewItem? {
        state.review.items.first { $0.source == source && $0.question == question }
    }

    @Test("a new item answered right, wrong, and right after a hint: Good, Again, Hard")
    func newItems() {
        var log = LogBuilder()
        log.start("2025-10-01T08:00:00+02:00", "a1", quiz: "geo")
        log.answer("2025-10-01T08:01:00+02:00", "a1", "q1", correct: true, skill: "capitals")
        log.answer("2025-10-01T08:02:00+02:00", "a1", "q2", correct: false)
        log.hint("2025-10-01T08:03:00+02:00", "a1", "q3")
        log.answer("2025-10-01T08:03:30.250+02:00", "a1", "q3", correct: true)
        log.answer("2025-10-01T08:04:00+02:00", "a1", "q4", correct: true)
        log.hint("2025-10-01T08:05:00+02:00", "a1", "q4")                     // after the answer: still Good
        let state = fold(log)
        #expect(state.review.items.count == 4)
        expect(find(state, "geo", "q1"), item("geo", "q1", skill: "capitals", 2.3065, 2.118103970459016,
                                              last: "2025-10-01T08:01:00+02:00", due: "2025-10-03T08:01:00+02:00"))
        expect(find(state, "geo", "q2"), item("geo", "q2", 0.212, 6.4133,
                                              last: "2025-10-01T08:02:00+02:00", due: "2025-10-02T08:02:00+02:00"))
        expect(find(state, "geo", "q3"), item("geo", "q3", 1.2931, 5.112170705601056,
                                              last: "2025-10-01T08:03:30.250+02:00", due: "2025-10-02T08:03:30.250+02:00"))
        expect(find(state, "geo", "q4"), item("geo", "q4", 2.3065, 2.118103970459016,
                                              last: "2025-10-01T08:04:00+02:00", due: "2025-10-03T08:04:00+02:00"))
        // By due instant: q2, q3 (tomorrow), then q1, q4.
        #expect(state.review.items.map(\.question) == ["q2", "q3", "q1", "q4"])
        #expect(state.review.due == 0)                                        // D is 10-01: nothing due yet
        #expect(fold(log, day: "2025-10-02").review.due == 2)
        #expect(fold(log, day: "2025-10-03").review.due == 4)
    }

    @Test("a lapse: Good, then Again two days later")
    func lapse() {
        var log = LogBuilder()
        log.start("2025-10-01T09:00:00Z", "a1", quiz: "geo")
        log.answer("2025-10-01T09:00:10Z", "a1", "q1", correct: true, skill: "capitals")
        log.finish("2025-10-01T09:01:00Z", "a1")
        log.start("2025-10-03T09:00:00Z", "a2", quiz: "geo")
        log.answer("2025-10-03T09:00:10Z", "a2", "q1", correct: false, skill: "rivers")
        expect(find(fold(log), "geo", "q1"), item("geo", "q1", skill: "rivers", 0.6075801062519337, 7.394502741279718,
                                                  reviews: 2, lapses: 1,
                                                  last: "2025-10-03T09:00:10Z", due: "2025-10-04T09:00:10Z"))
    }

    @Test("two reviews the same day (under 24 h apart): the short-term stability")
    func sameDay() {
        var log = LogBuilder()
        log.start("2025-10-01T08:00:00-05:00", "a1", quiz: "geo")
        log.answer("2025-10-01T08:00:10-05:00", "a1", "q1", correct: true)
        log.finish("2025-10-01T08:01:00-05:00", "a1")
        log.start("2025-10-01T10:00:00-05:00", "a2", quiz: "geo")             // a retry
        log.answer("2025-10-01T10:00:10-05:00", "a2", "q1", correct: false)
        expect(find(fold(log), "geo", "q1"), item("geo", "q1", 0.7750839828558984, 7.394502741279718, reviews: 2, lapses: 1,
                                                  last: "2025-10-01T10:00:10-05:00", due: "2025-10-02T10:00:10-05:00"))
    }

    @Test("a late-synced earlier answer is applied where it happened")
    func lateSynced() {
        // The log has the Again of the 3rd first, then the Good of the 1st (a device
        // that was offline): the item is as if Good came first, a lapse after it.
        var log = LogBuilder()
        log.start("2025-10-03T09:00:00Z", "a2", quiz: "geo")
        log.answer("2025-10-03T09:00:10Z", "a2", "q1", correct: false, skill: "rivers")
        log.start("2025-10-01T09:00:00Z", "a1", quiz: "geo")
        log.answer("2025-10-01T09:00:10Z", "a1", "q1", correct: true, skill: "capitals")
        let lapse = item("geo", "q1", skill: "rivers", 0.6075801062519337, 7.394502741279718, reviews: 2, lapses: 1,
                         last: "2025-10-03T09:00:10Z", due: "2025-10-04T09:00:10Z")
        expect(find(fold(log), "geo", "q1"), lapse)
        // Live, one record at a time, the same.
        var projector = LearnerProjector(options: StateOptions(user: "u-1"))
        for record in log.records {
            projector.apply(record)
            _ = projector.state()
        }
        expect(find(projector.state(), "geo", "q1"), lapse)
        // And Again first, then Good the next day, read in the other order: not a lapse.
        var other = LogBuilder()
        other.submit("2025-10-02T09:00:00Z", "l1", answers: [(true, nil)])
        other.submit("2025-10-01T09:00:00Z", "l1", answers: [(false, nil)])
        expect(find(fold(other), "l1", "q1"), item("l1", "q1", kind: .submission, 1.8867876195204154, 6.402115069296838, reviews: 2,
                                                   last: "2025-10-02T09:00:00Z", due: "2025-10-04T09:00:00Z"))
    }

    @Test("ties in instant go in log order")
    func ties() {
        var log = LogBuilder()
        log.submit("2025-10-01T09:00:00Z", "l1", answers: [(true, "a")])
        log.submit("2025-10-01T09:00:00Z", "l1", answers: [(false, "b")])      // same instant, later in the log: latest
        expect(find(fold(log), "l1", "q1"), item("l1", "q1", kind: .submission, skill: "b", 0.7750839828558984, 7.394502741279718,
                                                 reviews: 2, lapses: 1, last: "2025-10-01T09:00:00Z", due: "2025-10-02T09:00:00Z"))
    }

    @Test("a reset starts its scope's items afresh, and only those")
    func reset() {
        var log = LogBuilder()
        log.start("2025-10-01T09:00:00Z", "a1", quiz: "geo")
        log.answer("2025-10-01T09:00:10Z", "a1", "q1", correct: true)
        log.submit("2025-10-01T10:00:00Z", "l1", answers: [(true, nil)])
        log.reset("2025-10-02T09:00:00Z", .quizzes)
        log.answer("2025-10-02T09:00:20Z", "a1", "q2", correct: true)          // its attempt started before the reset
        #expect(fold(log).review.items.map(\.question) == ["q1"])               // only the submission's item
        #expect(fold(log).review.items.map(\.kind) == [.submission])
        log.start("2025-10-03T09:00:00Z", "a2", quiz: "geo")
        log.answer("2025-10-03T09:00:10Z", "a2", "q1", correct: false)
        expect(find(fold(log), "geo", "q1"), item("geo", "q1", 0.212, 6.4133,
                                                  last: "2025-10-03T09:00:10Z", due: "2025-10-04T09:00:10Z"))
        log.reset("2025-10-04T09:00:00Z", .puzzles)
        #expect(fold(log).review.items.count == 2)
        log.reset("2025-10-04T09:00:01Z", .all)
        #expect(fold(log).review.items.isEmpty)
    }

    @Test("--as-of between two reviews keeps only the first; --day cuts none")
    func asOf() {
        var log = LogBuilder()
        log.start("2025-10-01T09:00:00+09:00", "a1", quiz: "geo")
        log.answer("2025-10-01T09:00:10+09:00", "a1", "q1", correct: true)
        log.start("2025-10-03T09:00:00+09:00", "a2", quiz: "geo")
        log.answer("2025-10-03T09:00:10+09:00", "a2", "q1", correct: false)
        let first = item("geo", "q1", 2.3065, 2.118103970459016, last: "2025-10-01T09:00:10+09:00", due: "2025-10-03T09:00:10+09:00")
        expect(find(fold(log, asOf: .time(stamp("2025-10-02T00:00:00Z"))), "geo", "q1"), first)
        expect(find(fold(log, asOf: .seq(2)), "geo", "q1"), first)
        let both = fold(log, day: "2025-10-01")
        #expect(both.review.items.first?.reviews == 2)
        #expect(both.review.due == 0)
    }

    @Test("due is written in the offset of the latest review, its day that date there")
    func offsets() {
        var log = LogBuilder()
        log.submit("2025-10-01T23:30:00.123456789-08:00", "l1", answers: [(true, nil)])
        log.submit("2025-10-01T07:00:00+09:00", "l2", answers: [(false, nil)])
        let state = fold(log, day: "2025-10-02")
        expect(find(state, "l1", "q1"), item("l1", "q1", kind: .submission, 2.3065, 2.118103970459016,
                                             last: "2025-10-01T23:30:00.123456789-08:00", due: "2025-10-03T23:30:00.123456789-08:00"))
        #expect(find(state, "l1", "q1")?.dueDay == day("2025-10-03"))
        #expect(find(state, "l2", "q1")?.dueDay == day("2025-10-02"))
        #expect(state.review.due == 1)
        #expect(state.review.upcoming(days: 3).map(\.count) == [1, 0, 0])
    }

    @Test("only counted answers are reviews: unknown attempts, second answers and answers after the end are not")
    func counted() {
        var log = LogBuilder()
        log.answer("2025-10-01T09:00:00Z", "nope", "q1", correct: true)
        log.start("2025-10-01T09:00:00Z", "a1", quiz: "geo")
        log.answer("2025-10-01T09:00:10Z", "a1", "q1", correct: true)
        log.answer("2025-10-01T09:00:11Z", "a1", "q1", correct: false)          // a second answer
        log.finish("2025-10-01T09:01:00Z", "a1")
        log.answer("2025-10-01T09:02:00Z", "a1", "q2", correct: false)          // after the end
        let state = fold(log)
        #expect(state.review.items.count == 1)
        expect(find(state, "geo", "q1"), item("geo", "q1", 2.3065, 2.118103970459016,
                                              last: "2025-10-01T09:00:10Z", due: "2025-10-03T09:00:10Z"))
    }

    @Test("retention and parameters change the schedule")
    func scheduler() throws {
        var log = LogBuilder()
        log.submit("2025-10-01T09:00:00Z", "l1", answers: [(false, nil), (true, nil)])
        log.start("2025-10-01T09:10:00Z", "a1", quiz: "geo")
        log.hint("2025-10-01T09:10:05Z", "a1", "q1")
        log.answer("2025-10-01T09:10:10Z", "a1", "q1", correct: true)
        let options = StateOptions(user: "u-1", scheduler: try FSRSScheduler(desiredRetention: 0.85))
        let state = LearnerState(folding: log.records, options: options)
        #expect(state.review.retention == 0.85)
        // At 0.85 the intervals are S × (0.85^(1/decay) - 1) / factor = S × 1.7…: Again 1, Hard 2, Good 4.
        #expect(find(state, "l1", "q1")?.due == stamp("2025-10-02T09:00:00Z"))
        #expect(find(state, "geo", "q1")?.due == stamp("2025-10-03T09:10:10Z"))
        #expect(find(state, "l1", "q2")?.due == stamp("2025-10-05T09:00:00Z"))
        // w2 (a new Good's stability) at 5: round(5) = 5 days at 0.9.
        var w = FSRSScheduler.defaultParameters
        w[2] = 5
        let fitted = LearnerState(folding: log.records, options: StateOptions(user: "u-1", scheduler: try FSRSScheduler(parameters: w)))
        #expect(find(fitted, "l1", "q2")?.stability == 5)
        #expect(find(fitted, "l1", "q2")?.due == stamp("2025-10-06T09:00:00Z"))
        #expect(fitted.json.contains(#""review":{"retention":0.9,"due":0,"budget":20,"done":0,"today":[],"more":0,"items":["#))
    }

    @Test("parameters out of py-fsrs's bounds, the wrong count, a retention outside (0, 1) are refused")
    func refusals() throws {
        var w = FSRSScheduler.defaultParameters
        w[4] = 10.5
        w[20] = 0.05
        #expect(throws: FSRSError("parameters[4] = 10.5 is out of bounds (1.0 to 10.0); parameters[20] = 0.05 is out of bounds (0.1 to 0.8)")) {
            try FSRSScheduler(parameters: w)
        }
        #expect(throws: FSRSError("expected 21 parameters, got 19")) { try FSRSScheduler(parameters: Array(w.prefix(19))) }
        for retention in [0.0, 1.0, -0.5, .nan] {
            #expect(throws: FSRSError.self) { try FSRSScheduler(desiredRetention: retention) }
        }
        #expect(throws: FSRSError("element [1] must be a finite number")) { try FSRSScheduler.parameters(json: Array("[1, \"2\"]".utf8)) }
        #expect(throws: FSRSError("must be a JSON array of 21 numbers (w[0] … w[20])")) { try FSRSScheduler.parameters(json: Array("{}".utf8)) }
        #expect(throws: FSRSError.self) { try FSRSScheduler.parameters(json: Array("[1,".utf8)) }
        #expect(try FSRSScheduler.parameters(json: Array("[0.5, 1e1,\n 2]".utf8)) == [0.5, 10, 2])
    }

    @Test("a skill comes from the latest review; a submission's answers are each a review")
    func skillsAndSubmissions() {
        var log = LogBuilder()
        log.submit("2025-10-01T09:00:00Z", "l1", answers: [(true, "tone"), (false, nil)])
        log.submit("2025-10-05T09:00:00Z", "l1", answers: [(true, nil), (true, "inference")])
        let state = fold(log)
        #expect(state.review.items.map(\.reviews) == [2, 2])
        #expect(find(state, "l1", "q1")?.skill == nil)
        #expect(find(state, "l1", "q2")?.skill == "inference")
        #expect(find(state, "l1", "q2")?.lapses == 0)                           // Again first: not a lapse
    }

    @Test("the same reviews in any log order give the same items (late syncs never change the result)",
          arguments: [1, 2, 3, 4, 5])
    func anyOrder(seed: UInt64) {
        var rng = TestRandom(seed: seed)
        var reviews: [(at: String, correct: Bool)] = []
        for k in 0..<30 {
            let hour = 1 + Int(rng.next() % 20)
            reviews.append(("2025-\(10 + k / 28)-\(Day.pad(1 + k % 28, 2))T\(Day.pad(hour, 2)):00:00Z", rng.next() % 3 != 0))
        }
        var inOrder = LogBuilder()
        for r in reviews { inOrder.submit(r.at, "l1", answers: [(r.correct, nil), (!r.correct, nil)]) }
        var shuffled = LogBuilder()
        for r in reviews.shuffled(using: &rng) { shuffled.submit(r.at, "l1", answers: [(r.correct, nil), (!r.correct, nil)]) }
        #expect(fold(inOrder).review == fold(shuffled).review)
        #expect(fold(inOrder).review.items.map(\.reviews) == [30, 30])
    }
}

/// SplitMix64, for the shuffles above.
private struct TestRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
