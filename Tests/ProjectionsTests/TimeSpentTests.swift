import Events
import Projections
import Testing

/// `stats.time_spent_seconds`: worked by hand on small logs.
@Suite("stats: time spent")
struct TimeSpentTests {
    private func answer(_ log: inout LogBuilder, _ at: String, _ attempt: String, _ q: String, ms: Int?) {
        log.add(at, .answerSelected(AnswerSelected(attempt: attempt, question: q, choice: 1, correct: true, ms: ms)))
    }

    @Test("ms of counted answers, seconds of every puzzle attempt and of submissions")
    func sum() {
        var log = LogBuilder()
        log.start("2025-10-01T08:00:00Z", "a1")
        answer(&log, "2025-10-01T08:00:05Z", "a1", "q1", ms: 1500)
        answer(&log, "2025-10-01T08:00:07Z", "a1", "q2", ms: 2250)
        answer(&log, "2025-10-01T08:00:08Z", "a1", "q1", ms: 9999)      // duplicate: not counted
        answer(&log, "2025-10-01T08:00:09Z", "a1", "q3", ms: nil)       // no ms: adds nothing
        answer(&log, "2025-10-01T08:00:09Z", "nope", "q1", ms: 7000)    // unknown attempt
        log.puzzle("2025-10-01T09:00:00Z", "p1", seconds: "12.5")
        log.puzzle("2025-10-01T09:10:00Z", "p1", completed: false, seconds: "2")
        log.puzzle("2025-10-01T09:20:00Z", "p1", completed: false, seconds: nil)
        log.add("2025-10-01T10:00:00Z", .submissionMade(SubmissionMade(content: "l1", kind: .lesson, category: "reading",
                                                                        seconds: 60, answers: [])))
        // 1.5 + 2.25 + 12.5 + 2 + 60 = 78.25
        #expect(fold(log).stats.timeSpent.description == "78.25")
        #expect(fold(log).json.contains(#""active_days":1,"time_spent_seconds":78.25}"#))
        // For a person, in its two largest units, as the dashboard says it.
        #expect(fold(log).text.contains("· 1 submission · 1m 18s spent · 1 learning day"))
    }

    @Test("resets clear their own scope's part only")
    func resets() {
        var log = LogBuilder()
        log.start("2025-10-01T08:00:00Z", "a1")
        answer(&log, "2025-10-01T08:00:05Z", "a1", "q1", ms: 4000)
        log.puzzle("2025-10-01T09:00:00Z", "p1", seconds: "30")
        log.reset("2025-10-01T09:30:00Z", .quizzes)
        answer(&log, "2025-10-01T09:31:00Z", "a1", "q2", ms: 8000)      // attempt from before the reset
        log.start("2025-10-01T09:40:00Z", "a2")
        answer(&log, "2025-10-01T09:40:03Z", "a2", "q1", ms: 3001)
        // 30 (puzzle) + 3.001
        #expect(fold(log).stats.timeSpent.description == "33.001")
        log.reset("2025-10-01T10:00:00Z", .puzzles)
        #expect(fold(log).stats.timeSpent.description == "3.001")
        log.reset("2025-10-01T10:05:00Z", .all)
        #expect(fold(log).json.contains(#""time_spent_seconds":0}"#))
    }

    @Test("a learner with no ms and no seconds spent 0", arguments: [false, true])
    func noMs(withPuzzleWithoutSeconds: Bool) {
        var log = LogBuilder()
        log.start("2025-10-01T08:00:00Z", "a1")
        answer(&log, "2025-10-01T08:00:05Z", "a1", "q1", ms: nil)
        log.finish("2025-10-01T08:01:00Z", "a1")
        if withPuzzleWithoutSeconds { log.puzzle("2025-10-01T09:00:00Z", "p1", completed: false, seconds: nil) }
        #expect(fold(log).stats.timeSpent == ExactSeconds(nanoseconds: 0))
    }

    @Test("puzzle seconds as written: exact decimals, exponents, halves up at the nanosecond",
          arguments: [("12.75", "12.75"), ("1e2", "100"), ("1.5E-1", "0.15"), ("0.0000000005", "0.000000001"),
                      ("0.0000000004", "0"), ("3", "3"), ("0.1", "0.1")])
    func literals(literal: String, expected: String) {
        var log = LogBuilder()
        log.puzzle("2025-10-01T09:00:00Z", "p1", seconds: literal)
        #expect(fold(log).stats.timeSpent.description == expected)
    }

    @Test("a duration for a person: its two largest units (state's text, the dashboard, the audit)")
    func readable() {
        let s: Int64 = 1_000_000_000
        let cases: [(Int64, String)] = [
            (0, "0s"), (45 * s, "45s"), (12 * s + s / 2, "12.5s"), (12 * 60 * s + 5 * s, "12m 05s"),
            (13_032 * s + 902_000_000, "3h 37m"),   // 3 h 37 min 12.902 s: the issue's "13032.902 s spent"
            (30_013 * s, "8h 20m"),                  // a quiz resumed 8 hours later
            ((2 * 86_400 + 3 * 3600 + 300) * s, "2d 03h"), (-90 * s, "-1m 30s"),
        ]
        for (nanoseconds, text) in cases { #expect(ExactSeconds(nanoseconds: nanoseconds).readable == text) }
    }
}
