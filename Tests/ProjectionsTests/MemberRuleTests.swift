import Events
import Projections
import Testing

@Suite("Daily quiz, quizzes, puzzles, submissions")
struct MemberRuleTests {
    @Test("daily quiz: the latest attempt of D sets status; abandoned; first finish may be on D+1; other days and non-daily ignored")
    func dailyQuiz() {
        var log = LogBuilder()
        log.start("2025-10-20T09:00:00Z", "y-1")                         // yesterday
        log.start("2025-10-21T08:00:00Z", "n-1", quiz: "math", daily: false)
        log.start("2025-10-21T23:50:00Z", "a-1", quiz: "d-1", questions: 3)
        log.answer("2025-10-21T23:51:00Z", "a-1", "q1", correct: false)
        log.finish("2025-10-22T00:10:00Z", "a-1")                          // on D+1
        log.start("2025-10-22T00:20:00Z", "a-2", quiz: "d-1b", questions: 4) // D+1: not an attempt of D
        log.start("2025-10-21T23:55:00-01:00", "a-3", quiz: "d-2", questions: 2) // 22nd UTC, 21st local
        log.answer("2025-10-22T00:30:00Z", "a-3", "q1")
        log.abandon("2025-10-22T00:31:00Z", "a-3")
        let d = day("2025-10-21")
        #expect(fold(log, day: "2025-10-21", retryLimit: 3).dailyQuiz == DailyQuiz(
            day: d, status: .abandoned, quiz: "d-2", attempt: "a-3", answered: 1, score: 1, total: 2,
            completed: true, bestScore: 0, completedAt: stamp("2025-10-22T00:10:00Z"), attempts: 2, retryLimit: 3))
        #expect(fold(log, day: "2025-10-21", retryLimit: 3).dailyQuiz.retriesLeft == 2)
        #expect(fold(log, day: "2025-10-21", retryLimit: 0).dailyQuiz.retriesLeft == 0)
    }

    @Test("quizzes: per id in code point order (not Swift's String order), ids compared exactly")
    func quizzesOrderAndIdentity() {
        var log = LogBuilder()
        let decomposed = "e\u{301}"   // e + combining acute: code point order puts it before "f"
        for (i, quiz) in ["f", decomposed, "\u{E9}", "Z", "a"].enumerated() {
            log.start("2025-10-21T09:0\(i):00Z", "a-\(i)", quiz: quiz, daily: false)
        }
        let ids = fold(log).quizzes.map(\.quiz)
        #expect(ids.map { Array($0.unicodeScalars) } == ["Z", "a", decomposed, "f", "\u{E9}"].map { Array($0.unicodeScalars) })
        #expect(ids.count == 5)
    }

    @Test("quizzes: best score and best percent are separate maxima; latest is by end; fastest exact; retries")
    func quizzes() {
        var log = LogBuilder()
        log.start("2025-10-21T09:00:00Z", "a-1", quiz: "q", questions: 10, daily: false)
        for i in 1...4 { log.answer("2025-10-21T09:00:0\(i)Z", "a-1", "q\(i)") }
        log.start("2025-10-21T09:30:00.25Z", "a-2", quiz: "q", questions: 3, daily: false)
        for i in 1...3 { log.answer("2025-10-21T09:31:0\(i)Z", "a-2", "q\(i)") }
        log.start("2025-10-21T10:00:00Z", "a-3", quiz: "q", questions: 8, daily: false)
        log.answer("2025-10-21T10:00:01Z", "a-3", "q1")
        log.finish("2025-10-21T10:02:00.5Z", "a-2")     // 1920.25 s
        log.finish("2025-10-21T10:05:00Z", "a-1")       // 3900 s, ends after a-2
        log.abandon("2025-10-21T10:06:00Z", "a-3")      // 1 of 8 = 12.5 → 13, the latest end
        log.start("2025-10-21T11:00:00Z", "a-4", quiz: "q", questions: 2, daily: false)
        #expect(fold(log).quizzes == [QuizSummary(
            quiz: "q", attempts: 4, finished: 2, abandoned: 1, bestScore: 4, bestPercent: 100, latestPercent: 13,
            fastestSeconds: ExactSeconds(nanoseconds: 1_920_250_000_000))])
        #expect(fold(log).quizzes.first?.retries == 3)
        #expect(fold(log).quizzes.first?.fastestSeconds?.description == "1920.25")
    }

    @Test("puzzles: per puzzle then encoding; best of completions; latest failure without seconds")
    func puzzles() {
        var log = LogBuilder()
        log.puzzle("2025-10-21T09:00:00Z", "p-2", "substitution", seconds: "40")
        log.puzzle("2025-10-21T09:01:00Z", "p-1", "substitution", seconds: "12.75")
        log.puzzle("2025-10-21T09:02:00Z", "p-1", "caesar", seconds: "30")
        log.puzzle("2025-10-21T09:03:00Z", "p-1", "caesar", completed: false, seconds: "5")
        log.puzzle("2025-10-21T09:04:00Z", "p-1", "caesar", seconds: "25.5")
        log.puzzle("2025-10-21T09:05:00Z", "p-1", "caesar", completed: false, seconds: nil)
        log.puzzle("2025-10-21T09:06:00Z", "p-3", "caesar", completed: false, seconds: nil)
        #expect(fold(log).puzzles == [
            PuzzleSummary(puzzle: "p-1", encoding: "caesar", attempts: 4, completed: 2, failed: 2,
                          bestSeconds: Seconds(literal: "25.5"),
                          latest: .init(outcome: .failed, at: stamp("2025-10-21T09:05:00Z"), seconds: nil)),
            PuzzleSummary(puzzle: "p-1", encoding: "substitution", attempts: 1, completed: 1, failed: 0,
                          bestSeconds: Seconds(literal: "12.75"),
                          latest: .init(outcome: .completed, at: stamp("2025-10-21T09:01:00Z"), seconds: Seconds(literal: "12.75"))),
            PuzzleSummary(puzzle: "p-2", encoding: "substitution", attempts: 1, completed: 1, failed: 0,
                          bestSeconds: Seconds(literal: "40"),
                          latest: .init(outcome: .completed, at: stamp("2025-10-21T09:00:00Z"), seconds: Seconds(literal: "40"))),
            PuzzleSummary(puzzle: "p-3", encoding: "caesar", attempts: 1, completed: 0, failed: 1, bestSeconds: nil,
                          latest: .init(outcome: .failed, at: stamp("2025-10-21T09:06:00Z"), seconds: nil)),
        ])
    }

    @Test("submissions: kind and category from the latest, best ignores null, the last 5 newest first")
    func submissions() {
        var log = LogBuilder()
        let right = (correct: true, skill: String?.none), wrong = (correct: false, skill: String?.none)
        log.submit("2025-10-21T09:00:00Z", "l-1", kind: .lesson, category: "reading", answers: [right, wrong])  // 50
        log.submit("2025-10-21T09:01:00Z", "l-1", answers: [right, right, right, wrong])                     // 75
        log.submit("2025-10-21T09:02:00Z", "l-1", answers: [wrong, wrong, wrong, wrong, wrong, wrong, wrong, right]) // 12.5 → 13
        log.submit("2025-10-21T09:03:00Z", "l-1", answers: [right])                                          // 100
        log.submit("2025-10-21T09:04:00Z", "l-1", answers: [wrong])                                          // 0
        log.submit("2025-10-21T09:05:00Z", "l-1", kind: .passage, category: "writing", answers: [])         // null
        log.submit("2025-10-21T09:06:00Z", "a-0", answers: [])
        #expect(fold(log).submissions == [
            SubmissionSummary(content: "a-0", kind: .lesson, category: "reading", totalAttempts: 1, bestScore: nil,
                              latestScore: nil, recent: [.init(correct: 0, total: 0, at: stamp("2025-10-21T09:06:00Z"))]),
            SubmissionSummary(content: "l-1", kind: .passage, category: "writing", totalAttempts: 6, bestScore: 100,
                              latestScore: nil, recent: [
                                .init(correct: 0, total: 0, at: stamp("2025-10-21T09:05:00Z")),
                                .init(correct: 0, total: 1, at: stamp("2025-10-21T09:04:00Z")),
                                .init(correct: 1, total: 1, at: stamp("2025-10-21T09:03:00Z")),
                                .init(correct: 1, total: 8, at: stamp("2025-10-21T09:02:00Z")),
                                .init(correct: 3, total: 4, at: stamp("2025-10-21T09:01:00Z")),
                              ]),
        ])
        #expect(fold(log).submissions.last?.recent.map(\.score) == [nil, 0, 100, 13, 75])
    }

    @Test("hints: grants add, each use takes one, never below 0 (overdraw), never reset")
    func hints() {
        var log = LogBuilder()
        log.grant("2025-10-21T09:00:00Z", 2, .seed)
        log.start("2025-10-21T09:01:00Z", "a-1")
        log.hint("2025-10-21T09:02:00Z", "a-1", "q1", .fiftyFifty)
        log.reset("2025-10-21T09:03:00Z", .all)
        log.hint("2025-10-21T09:04:00Z", "a-1", "q2", .reveal)
        log.hint("2025-10-21T09:05:00Z", "a-1", "q3", .reveal)
        log.grant("2025-10-21T09:06:00Z", 3, .purchase)
        let state = fold(log)
        #expect(state.hints == Hints(balance: 3, granted: 5, used: 3, usedFiftyFifty: 1, usedReveal: 2))
        #expect(state.anomalies.map(\.kind) == [.hintOverdraw])
        #expect(state.anomalies.map(\.seq) == [6])
    }

    @Test("stats: first answers of any attempt state plus submission answers; learning days")
    func stats() {
        var log = LogBuilder()
        log.start("2025-10-18T09:00:00Z", "s-0", quiz: "only-started", daily: false)   // not a learning day
        log.start("2025-10-19T23:00:00Z", "a-1", quiz: "x", questions: 3, daily: false)
        log.answer("2025-10-20T00:10:00Z", "a-1", "q1")                                // day of the start: 19th
        log.answer("2025-10-20T00:11:00Z", "a-1", "q1", correct: false)                // duplicate: not counted
        log.abandon("2025-10-20T00:12:00Z", "a-1")
        log.puzzle("2025-10-21T09:00:00Z", "p-1", completed: false)
        log.puzzle("2025-10-21T09:10:00Z", "p-1")
        log.submit("2025-10-23T09:00:00Z", "l-1", answers: [(true, nil), (false, nil), (true, nil)])
        log.dailyDone("2025-10-24", "d-1", correct: 1, questions: 2)
        #expect(fold(log).stats == Stats(quizzesCompleted: 1, questionsAnswered: 6, correct: 4, puzzlesCompleted: 1,
                                         submissions: 1, firstActive: day("2025-10-19"), lastActive: day("2025-10-24"),
                                         activeDays: 4, timeSpent: seconds(60)))   // two puzzles of 30 s, failed too
        #expect(fold(log).stats.accuracy == 67)
    }
}
