import Events
import Projections
import Testing

@Suite("Anomalies, resets and achievements")
struct AnomalyAndResetTests {
    @Test("every anomaly kind, in log order, several on one event in the spec's order")
    func anomalies() {
        var log = LogBuilder()
        log.answer("2025-10-21T09:00:00Z", "ghost", "q1")                 // 1 unknown_attempt
        log.start("2025-10-21T09:01:00Z", "a-1", questions: 2)            // 2
        log.answer("2025-10-21T09:02:00Z", "a-1", "q1")                   // 3
        log.answer("2025-10-21T09:03:00Z", "a-1", "q1", correct: false)   // 4 duplicate_answer
        log.start("2025-10-21T09:04:00Z", "a-1", quiz: "other")           // 5 duplicate_attempt
        log.grant("2025-10-21T09:05:00Z", 2)                              // 6
        log.hint("2025-10-21T09:06:00Z", "a-1", "q2")                     // 7
        log.hint("2025-10-21T09:07:00Z", "a-1", "q2")                     // 8
        log.hint("2025-10-21T09:08:00Z", "a-1", "q2")                     // 9 hint_limit + hint_overdraw
        log.finish("2025-10-21T09:09:00Z", "a-1")                         // 10
        log.answer("2025-10-21T09:10:00Z", "a-1", "q2")                   // 11 after_end
        log.abandon("2025-10-21T09:11:00Z", "a-1")                        // 12 after_end
        log.hint("2025-10-21T09:12:00Z", "a-1", "q2")                     // 13 after_end + hint_limit + hint_overdraw
        log.finish("2025-10-21T09:13:00Z", "nobody")                      // 14 unknown_attempt
        log.hint("2025-10-21T09:14:00Z", "nobody", "q1")                  // 15 unknown_attempt + hint_overdraw
        log.newer(user: "u-1")                                            // 16 newer_version
        log.newer(user: "u-2")                                            // 17 another user's: not reported
        log.newer(user: nil)                                              // 18 unreadable user: reported
        let state = fold(log)
        #expect(state.anomalies.map { "\($0.seq) \($0.kind)" } == [
            "1 unknown_attempt", "4 duplicate_answer", "5 duplicate_attempt", "9 hint_limit", "9 hint_overdraw",
            "11 after_end", "12 after_end", "13 after_end", "13 hint_limit", "13 hint_overdraw",
            "14 unknown_attempt", "15 unknown_attempt", "15 hint_overdraw", "16 newer_version", "18 newer_version",
        ])
        #expect(state.anomalies[0].detail == "answer.selected names attempt \"ghost\", which this user has not started earlier in the log")
        #expect(state.anomalies[2].detail == "quiz.started reuses attempt \"a-1\", already started at seq 2; this start is ignored")
        // The refused events change nothing: the second start did not replace the quiz, the late answer is not counted.
        #expect(state.dailyQuiz == DailyQuiz(day: day("2025-10-21"), status: .completed, quiz: "daily-quiz",
                                             attempt: "a-1", answered: 1, score: 1, total: 2, completed: true,
                                             bestScore: 1, completedAt: stamp("2025-10-21T09:09:00Z"), attempts: 1))
        #expect(state.hints == Hints(balance: 0, granted: 2, used: 5, usedFiftyFifty: 5, usedReveal: 0))
    }

    @Test("a log of newer-version lines only: day null, the lines reported")
    func newerOnly() {
        var log = LogBuilder()
        log.newer(user: "u-1")
        #expect(fold(log) == LearnerState(user: "u-1", anomalies: [Anomaly(
            seq: 1, kind: .newerVersion,
            detail: "line written in format version 3 (type \"quiz.paused\"), skipped by this reader of versions 1 to 2")]))
    }

    @Test("quizzes reset: an attempt counts only if started after it; puzzles, submissions and hints stay")
    func quizzesReset() {
        var log = LogBuilder()
        log.grant("2025-10-21T08:00:00Z", 3)
        log.dailyDone("2025-10-20", "a-0")
        log.puzzle("2025-10-21T08:30:00Z", "p-1")
        log.submit("2025-10-21T08:40:00Z", "l-1", answers: [(true, nil)])
        log.start("2025-10-21T09:00:00Z", "a-1", quiz: "d")
        log.answer("2025-10-21T09:01:00Z", "a-1", "q1")
        log.reset("2025-10-21T09:02:00Z", .quizzes)
        log.answer("2025-10-21T09:03:00Z", "a-1", "q2")    // the old attempt goes on: not counted, no anomaly
        log.finish("2025-10-21T09:04:00Z", "a-1")
        let d = day("2025-10-21")
        #expect(fold(log) == LearnerState(
            user: "u-1", day: d,
            puzzles: [PuzzleSummary(puzzle: "p-1", encoding: "caesar", attempts: 1, completed: 1, failed: 0,
                                    bestSeconds: Seconds(literal: "30"),
                                    latest: .init(outcome: .completed, at: stamp("2025-10-21T08:30:00Z"), seconds: Seconds(literal: "30")))],
            submissions: [SubmissionSummary(content: "l-1", kind: .lesson, category: "reading", totalAttempts: 1,
                                            bestScore: 100, latestScore: 100,
                                            recent: [.init(correct: 1, total: 1, at: stamp("2025-10-21T08:40:00Z"))])],
            hints: Hints(balance: 3, granted: 3),
            stats: Stats(questionsAnswered: 1, correct: 1, puzzlesCompleted: 1, submissions: 1, firstActive: d,
                         lastActive: d, activeDays: 1, timeSpent: seconds(30))))
        // A new attempt after the reset counts again.
        log.dailyDone("2025-10-21", "a-2")
        let after = fold(log)
        #expect(after.dailyQuiz.attempts == 1)
        #expect(after.streak.runs == [Streak.Run(start: d, end: d)])
    }

    @Test("puzzles and submissions resets clear their scope only, in the streak too")
    func otherResets() {
        var log = LogBuilder()
        log.dailyDone("2025-10-19", "a-1")
        log.puzzle("2025-10-20T09:00:00Z", "p-1")
        log.submit("2025-10-21T09:00:00Z", "l-1", answers: [])
        #expect(fold(log, streakOn: .any).streak.current == 3)
        log.reset("2025-10-21T10:00:00Z", .puzzles)
        var state = fold(log, streakOn: .any)
        #expect(state.puzzles == [])
        #expect(state.submissions.count == 1)
        #expect(state.streak.runs.map(\.days) == [1, 1])
        #expect(state.stats == Stats(quizzesCompleted: 1, questionsAnswered: 5, correct: 5, submissions: 1,
                                     firstActive: day("2025-10-19"), lastActive: day("2025-10-21"), activeDays: 2))
        log.reset("2025-10-21T10:01:00Z", .submissions)
        state = fold(log, streakOn: .any)
        #expect(state.submissions == [])
        #expect(state.streak.runs == [Streak.Run(start: day("2025-10-19"), end: day("2025-10-19"))])
        log.reset("2025-10-21T10:02:00Z", .all)
        state = fold(log, streakOn: .any)
        #expect(state == LearnerState(user: "u-1", day: day("2025-10-21")))
    }

    @Test("achievements: streak_7 dated by the 7th day, even when a late event fills a gap")
    func streakSeven() {
        var log = LogBuilder()
        for d in [1, 2, 3, 5, 6, 7, 8, 9] { log.dailyDone("2025-10-0\(d)", "a-\(d)") }
        #expect(fold(log).achievements == [])
        log.dailyDone("2025-10-04", "a-4")      // late: the run is 1...9 now (every quiz perfect, too)
        #expect(fold(log).achievements == [Achievement(.streak7, day: day("2025-10-07")),
                                           Achievement(.perfectWeek, day: day("2025-10-07"))])
    }

    @Test("achievements: quizzes_30, perfect_10, perfect_week, in order, several on one event in the spec's order")
    func counts() {
        var log = LogBuilder()
        // 23 non-daily quizzes, 3 of them perfect.
        for i in 0..<23 {
            log.start("2025-09-01T09:00:00Z", "x-\(i)", quiz: "x", questions: 1, daily: false)
            log.answer("2025-09-01T09:00:01Z", "x-\(i)", "q1", correct: i < 3)
            log.finish("2025-09-01T09:00:02Z", "x-\(i)")
        }
        // 7 perfect daily quizzes on consecutive days: the 7th finish is the 30th quiz,
        // the 10th perfect one, the 7th active day and the 7th perfect day at once.
        for d in 1...7 { log.dailyDone("2025-10-0\(d)", "d-\(d)") }
        let seventh = day("2025-10-07")
        #expect(fold(log).achievements == [Achievement(.streak7, day: seventh), Achievement(.quizzes30, day: seventh),
                                           Achievement(.perfect10, day: seventh), Achievement(.perfectWeek, day: seventh)])
        // A quizzes reset starts achievements afresh.
        log.reset("2025-10-08T09:00:00Z", .quizzes)
        #expect(fold(log).achievements == [])
    }

    @Test("perfect_week needs every question right on 7 consecutive days; perfect_10 dated by the 10th's day")
    func perfectWeek() {
        var log = LogBuilder()
        for d in 1...6 { log.dailyDone("2025-10-0\(d)", "d-\(d)") }
        log.dailyDone("2025-10-07", "d-7", correct: 4)
        #expect(fold(log).achievements == [Achievement(.streak7, day: day("2025-10-07"))])
        log.dailyDone("2025-10-08", "d-8")
        log.dailyDone("2025-10-09", "d-9")
        log.dailyDone("2025-10-10", "d-10")    // the 9th perfect quiz
        log.start("2025-10-11T09:00:00Z", "x-1", quiz: "x", questions: 1, daily: false)
        log.answer("2025-10-11T09:00:01Z", "x-1", "q1")
        log.finish("2025-10-11T09:00:02Z", "x-1")
        #expect(fold(log).achievements == [Achievement(.streak7, day: day("2025-10-07")),
                                           Achievement(.perfect10, day: day("2025-10-11"))])
    }
}
