import Events
import Projections
import Testing

/// The six seed scenarios of the issue, each stated as the whole expected state.
@Suite("Seed scenarios")
struct SeedScenarioTests {
    let d = day("2025-10-21")

    /// Scenarios 1 and 3: today's daily quiz of 5 started at 09:00, then
    /// `answers` (correct or not) one minute apart, and the app reopened.
    static let reopened: [(scenario: Int, answers: [Bool], score: Int, nextQuestion: Int, button: String)] = [
        (1, [true], 1, 1, "Continue (2/5)"),
        (3, [true, false, true], 2, 3, "Continue (4/5)"),
    ]

    @Test("1 and 3. answer 1 (or 3) of 5 and reopen: resume at question 2 (or 4) with the score so far",
          arguments: reopened)
    func answerAndReopen(scenario: Int, answers: [Bool], score: Int, nextQuestion: Int, button: String) {
        var log = LogBuilder()
        log.start("2025-10-21T09:00:00Z", "a-1", quiz: "daily-2025-10-21")
        for (k, correct) in answers.enumerated() {
            log.answer("2025-10-21T09:0\(k + 1):00Z", "a-1", "q\(k + 1)", correct: correct)
        }
        let state = fold(log)
        // Each answer is a new item: right is due in 2 days, wrong tomorrow (so first).
        let items = answers.enumerated().map { k, correct in
            correct ? Hand.good("daily-2025-10-21", "q\(k + 1)", at: "2025-10-21T09:0\(k + 1):00Z", due: "2025-10-23T09:0\(k + 1):00Z")
                : Hand.again("daily-2025-10-21", "q\(k + 1)", at: "2025-10-21T09:0\(k + 1):00Z", due: "2025-10-22T09:0\(k + 1):00Z")
        }
        #expect(state.reviewRounded == LearnerState(
            user: "u-1", day: d,
            dailyQuiz: DailyQuiz(day: d, status: .inProgress, quiz: "daily-2025-10-21", attempt: "a-1",
                                 answered: answers.count, score: score, total: 5, attempts: 1),
            quizzes: [QuizSummary(quiz: "daily-2025-10-21", attempts: 1)],
            stats: Stats(questionsAnswered: answers.count, correct: score, firstActive: d, lastActive: d, activeDays: 1),
            review: Hand.schedule(items.filter { $0.stability < 1 } + items.filter { $0.stability > 1 }, on: d)).reviewRounded,
            "scenario \(scenario)")
        #expect(state.dailyQuiz.nextQuestion == nextQuestion)
        #expect(state.dailyQuiz.button == button)
    }

    @Test("2. complete all: completed with its score")
    func completeAll() {
        var log = LogBuilder()
        log.dailyDone("2025-10-21", "a-1", correct: 4)
        let finishedAt = stamp("2025-10-21T09:10:00Z")
        #expect(fold(log).reviewRounded == LearnerState(
            user: "u-1", day: d,
            dailyQuiz: DailyQuiz(day: d, status: .completed, quiz: "daily-2025-10-21", attempt: "a-1",
                                 answered: 5, score: 4, total: 5, completed: true, bestScore: 4,
                                 completedAt: finishedAt, attempts: 1),
            streak: Streak(current: 1, activeToday: true, longest: 1, runs: [Streak.Run(start: d, end: d)]),
            history: [HistoryEntry(day: d, quiz: "daily-2025-10-21", bestScore: 4, total: 5, completedAt: finishedAt)],
            quizzes: [QuizSummary(quiz: "daily-2025-10-21", attempts: 1, finished: 1, bestScore: 4, bestPercent: 80,
                                  latestPercent: 80, fastestSeconds: seconds(600))],
            stats: Stats(quizzesCompleted: 1, questionsAnswered: 5, correct: 4, firstActive: d, lastActive: d,
                         activeDays: 1),
            review: Hand.schedule([Hand.again("daily-2025-10-21", "q5", at: "2025-10-21T09:05:00Z", due: "2025-10-22T09:05:00Z")]
                                  + (1...4).map { k in Hand.good("daily-2025-10-21", "q\(k)", at: "2025-10-21T09:0\(k):00Z",
                                                                 due: "2025-10-23T09:0\(k):00Z") }, on: d)).reviewRounded)
        #expect(fold(log).dailyQuiz.button == "Completed 4/5 · 1 retry left")
    }

    @Test("4. retry after completion: retries_used 1, retries_left 0, best_score kept")
    func retryAfterCompletion() {
        var log = LogBuilder()
        log.dailyDone("2025-10-21", "a-1", correct: 4)
        log.start("2025-10-21T10:00:00Z", "a-2", quiz: "daily-2025-10-21")
        log.answer("2025-10-21T10:01:00Z", "a-2", "q1")
        log.answer("2025-10-21T10:02:00Z", "a-2", "q2", correct: false)
        log.finish("2025-10-21T10:05:00Z", "a-2")
        let finishedAt = stamp("2025-10-21T09:10:00Z")
        // The retry reviews q1 and q2 again an hour later: same-day reviews. q1 Good
        // again: the short-term factor e^(w17 w18) 2.3065^-w19 = 0.9945 is raised to 1,
        // so S stays 2.3065 and D moves to 2.1112142357…; q2 Again: S 0.7750839828…,
        // D 7.3945027412…, a lapse, due tomorrow.
        let q1 = ReviewItem(kind: .quiz, source: "daily-2025-10-21", question: "q1", skill: nil, stability: 2.3065,
                            difficulty: 2.111214235785395, reviews: 2, lapses: 0, lastReview: stamp("2025-10-21T10:01:00Z"),
                            due: stamp("2025-10-23T10:01:00Z"))
        let q2 = ReviewItem(kind: .quiz, source: "daily-2025-10-21", question: "q2", skill: nil, stability: 0.7750839828558984,
                            difficulty: 7.394502741279718, reviews: 2, lapses: 1, lastReview: stamp("2025-10-21T10:02:00Z"),
                            due: stamp("2025-10-22T10:02:00Z"))
        let review = Hand.schedule([
            Hand.again("daily-2025-10-21", "q5", at: "2025-10-21T09:05:00Z", due: "2025-10-22T09:05:00Z"), q2,
            Hand.good("daily-2025-10-21", "q3", at: "2025-10-21T09:03:00Z", due: "2025-10-23T09:03:00Z"),
            Hand.good("daily-2025-10-21", "q4", at: "2025-10-21T09:04:00Z", due: "2025-10-23T09:04:00Z"), q1,
        ], on: d)
        #expect(fold(log).reviewRounded == LearnerState(
            user: "u-1", day: d,
            dailyQuiz: DailyQuiz(day: d, status: .completed, quiz: "daily-2025-10-21", attempt: "a-2",
                                 answered: 2, score: 1, total: 5, completed: true, bestScore: 4,
                                 completedAt: finishedAt, attempts: 2),
            streak: Streak(current: 1, activeToday: true, longest: 1, runs: [Streak.Run(start: d, end: d)]),
            history: [HistoryEntry(day: d, quiz: "daily-2025-10-21", bestScore: 4, total: 5, completedAt: finishedAt)],
            quizzes: [QuizSummary(quiz: "daily-2025-10-21", attempts: 2, finished: 2, bestScore: 4, bestPercent: 80,
                                  latestPercent: 20, fastestSeconds: seconds(300))],
            stats: Stats(quizzesCompleted: 2, questionsAnswered: 7, correct: 5, firstActive: d, lastActive: d,
                         activeDays: 1),
            review: review).reviewRounded)
        let quiz = fold(log).dailyQuiz
        #expect((quiz.retriesUsed, quiz.retriesLeft) == (1, 0))
        #expect(quiz.button == "Completed 1/5 · no retries left")
    }

    @Test("5. next day: not_started, yesterday in the history, streak still alive")
    func nextDay() {
        var log = LogBuilder()
        log.dailyDone("2025-10-21", "a-1", correct: 5)
        let next = day("2025-10-22")
        let finishedAt = stamp("2025-10-21T09:10:00Z")
        #expect(fold(log, day: "2025-10-22").reviewRounded == LearnerState(
            user: "u-1", day: next,
            dailyQuiz: DailyQuiz(day: next),
            streak: Streak(current: 1, activeToday: false, longest: 1, runs: [Streak.Run(start: d, end: d)]),
            history: [HistoryEntry(day: d, quiz: "daily-2025-10-21", bestScore: 5, total: 5, completedAt: finishedAt)],
            quizzes: [QuizSummary(quiz: "daily-2025-10-21", attempts: 1, finished: 1, bestScore: 5, bestPercent: 100,
                                  latestPercent: 100, fastestSeconds: seconds(600))],
            stats: Stats(quizzesCompleted: 1, questionsAnswered: 5, correct: 5, firstActive: d, lastActive: d,
                         activeDays: 1),
            achievements: [],
            // Five right answers yesterday: due tomorrow, none today.
            review: Hand.schedule((1...5).map { k in Hand.good("daily-2025-10-21", "q\(k)", at: "2025-10-21T09:0\(k):00Z",
                                                               due: "2025-10-23T09:0\(k):00Z") }, on: next)).reviewRounded)
        #expect(fold(log, day: "2025-10-22").dailyQuiz.button == "Start")
    }

    @Test("6. start at 23:55, answer and finish after midnight: all on the start day")
    func acrossMidnight() {
        var log = LogBuilder()
        log.start("2025-10-21T23:55:00+03:00", "a-1", quiz: "daily-2025-10-21", questions: 2)
        log.answer("2025-10-22T00:01:00+03:00", "a-1", "q1")
        log.answer("2025-10-22T00:02:00+03:00", "a-1", "q2")
        log.finish("2025-10-22T00:03:00+03:00", "a-1")
        let finishedAt = stamp("2025-10-22T00:03:00+03:00")
        let quizzes = [QuizSummary(quiz: "daily-2025-10-21", attempts: 1, finished: 1, bestScore: 2,
                                   bestPercent: 100, latestPercent: 100, fastestSeconds: seconds(480))]
        let stats = Stats(quizzesCompleted: 1, questionsAnswered: 2, correct: 2, firstActive: d, lastActive: d,
                          activeDays: 1)
        let history = [HistoryEntry(day: d, quiz: "daily-2025-10-21", bestScore: 2, total: 2, completedAt: finishedAt)]
        // Reviews are at the answers' own instants: due 2 days after them, on the 24th.
        let items = (1...2).map { k in Hand.good("daily-2025-10-21", "q\(k)", at: "2025-10-22T00:0\(k):00+03:00",
                                                 due: "2025-10-24T00:0\(k):00+03:00") }
        #expect(fold(log, day: "2025-10-21").reviewRounded == LearnerState(
            user: "u-1", day: d,
            dailyQuiz: DailyQuiz(day: d, status: .completed, quiz: "daily-2025-10-21", attempt: "a-1", answered: 2,
                                 score: 2, total: 2, completed: true, bestScore: 2, completedAt: finishedAt,
                                 attempts: 1),
            streak: Streak(current: 1, activeToday: true, longest: 1, runs: [Streak.Run(start: d, end: d)]),
            history: history, quizzes: quizzes, stats: stats, review: Hand.schedule(items, on: d)).reviewRounded)
        // Without --day, D is the day the latest event counts on: the answer and
        // finish after midnight belong to the attempt's start day, so D stays 21st.
        #expect(fold(log) == fold(log, day: "2025-10-21"))
        // The next day named: today is not started, the streak is alive through yesterday.
        let next = day("2025-10-22")
        #expect(fold(log, day: "2025-10-22").reviewRounded == LearnerState(
            user: "u-1", day: next, dailyQuiz: DailyQuiz(day: next),
            streak: Streak(current: 1, activeToday: false, longest: 1, runs: [Streak.Run(start: d, end: d)]),
            history: history, quizzes: quizzes, stats: stats, review: Hand.schedule(items, on: next)).reviewRounded)
    }
}
