import Events
@testable import Projections
import Testing

/// The report on a log small enough to work out by hand from the spec's rules,
/// and the mean score percent on hand-computed fractions.
@Suite("report: hand-worked examples")
struct ReportWorkedExampleTests {
    /// Two learners over three days (all times UTC):
    /// - `a` starts daily attempt A1 (2 questions) at 23:50 on 10-01 and answers,
    ///   hints and finishes after midnight: all on 10-01 (score 1 of 2). At 08:00 on
    ///   10-02 a device reuses the id A1: that start starts nothing, and is on its
    ///   own day, 10-02; the answer after it comes after A1's end (on 10-01, not counted).
    ///   Then daily A2 (1 question, right) on 10-02.
    /// - `b` is granted hints on 10-02 (not activity), completes a puzzle on 10-02;
    ///   on 10-03 submits 2 answers (x right, one wrong without skill), takes daily
    ///   B1 (3 questions, 1 right, skill x) and answers an attempt never started.
    static var log: LogBuilder {
        var log = LogBuilder(user: "a")
        log.start("2025-10-01T23:50:00Z", "A1", questions: 2)
        log.answer("2025-10-02T00:05:00Z", "A1", "q1", correct: true, skill: "x")
        log.answer("2025-10-02T00:06:00Z", "A1", "q1", correct: false, skill: "x")
        log.hint("2025-10-02T00:07:00Z", "A1", "q2")
        log.answer("2025-10-02T00:08:00Z", "A1", "q2", correct: false, skill: "y")
        log.finish("2025-10-02T00:09:00Z", "A1")
        log.start("2025-10-02T08:00:00Z", "A1", questions: 2)
        log.answer("2025-10-02T08:01:00Z", "A1", "q1", correct: true, skill: "x")
        log.start("2025-10-02T12:00:00Z", "A2", questions: 1)
        log.answer("2025-10-02T12:01:00Z", "A2", "q1", correct: true)
        log.finish("2025-10-02T12:02:00Z", "A2")
        log.add("2025-10-02T10:00:00Z", .hintsGranted(HintsGranted(amount: 3, reason: .seed)), user: "b")
        log.add("2025-10-02T10:05:00Z", .puzzleCompleted(PuzzlePlayed(puzzle: "p", encoding: "caesar", seconds: nil)), user: "b")
        log.add("2025-10-03T09:00:00Z", .submissionMade(SubmissionMade(
            content: "l1", kind: .lesson, category: "reading", diagnostic: nil,
            answers: [SubmissionMade.Answer(question: "1", choice: 0, correct: true, skill: "x"),
                      SubmissionMade.Answer(question: "2", choice: 0, correct: false, skill: nil)])), user: "b")
        log.start("2025-10-03T09:10:00Z", "B1", questions: 3, user: "b")
        log.answer("2025-10-03T09:11:00Z", "B1", "q1", correct: true, skill: "x", user: "b")
        log.finish("2025-10-03T09:12:00Z", "B1", user: "b")
        log.answer("2025-10-03T09:20:00Z", "B9", "q1", correct: true, skill: "x", user: "b")
        return log
    }

    static func counts(_ active: Int, started: Int, finished: Int, completion: Int?, mean: Int?, answers: Int,
                       accuracy: Int?, hints: Int = 0, puzzles: Int = 0, submissions: Int = 0) -> Report.Counts {
        var c = Report.Counts()
        c.activeUsers = active; c.quizzesStarted = started; c.quizzesFinished = finished
        c.completionRate = completion; c.meanScorePercent = mean; c.answers = answers; c.accuracy = accuracy
        c.hintsUsed = hints; c.puzzlesCompleted = puzzles; c.submissions = submissions
        return c
    }

    static func report(from: Day? = nil, to: Day? = nil) -> Report {
        var builder = ReportBuilder(from: from, to: to)
        for record in log.records { builder.add(record) }
        return builder.report()
    }

    /// 10-01: a's A1 (1 of 2 right, a hint); 10-02: a's reused id and A2 (1 of 1), b's puzzle.
    static let firstTwoDays = [
        Report.DayRow(day: day("2025-10-01"), counts: counts(1, started: 1, finished: 1, completion: 100, mean: 50,
                                                            answers: 2, accuracy: 50, hints: 1)),
        Report.DayRow(day: day("2025-10-02"), counts: counts(2, started: 1, finished: 1, completion: 100, mean: 100,
                                                            answers: 1, accuracy: 100, puzzles: 1)),
    ]

    @Test("the whole log")
    func whole() {
        let d1 = day("2025-10-01"), d3 = day("2025-10-03")
        #expect(Self.report() == Report(
            from: d1, to: d3,
            days: Self.firstTwoDays + [
                // 1/3 is 33 %; 2 of 3 answers right is 67 %.
                Report.DayRow(day: d3, counts: Self.counts(1, started: 1, finished: 1, completion: 100, mean: 33,
                                                           answers: 3, accuracy: 67, submissions: 1)),
            ],
            // The mean of 1/2, 1/1 and 1/3 is 11/18: 61 %.
            totals: Self.counts(2, started: 3, finished: 3, completion: 100, mean: 61, answers: 6, accuracy: 67,
                                hints: 1, puzzles: 1, submissions: 1),
            skills: [Report.SkillRow(skill: "x", correct: 3, answers: 3), Report.SkillRow(skill: "y", correct: 0, answers: 1)],
            // a: daily streak days 10-01 and 10-02, alive at 10-03: 2; b: 10-03: 1.
            streaks: [Report.StreakBucket(current: 1, users: 1), Report.StreakBucket(current: 2, users: 1)]))
    }

    @Test("a past range: rows up to --to, and the streaks at --to")
    func pastRange() {
        let d1 = day("2025-10-01"), d2 = day("2025-10-02")
        #expect(Self.report(to: d2) == Report(
            from: d1, to: d2,
            days: Self.firstTwoDays,
            totals: Self.counts(2, started: 2, finished: 2, completion: 100, mean: 75, answers: 3, accuracy: 67,
                                hints: 1, puzzles: 1),
            skills: [Report.SkillRow(skill: "x", correct: 1, answers: 1), Report.SkillRow(skill: "y", correct: 0, answers: 1)],
            // a: 10-01 and 10-02 at 10-02: 2; b: no finished daily quiz up to 10-02: 0.
            streaks: [Report.StreakBucket(current: 0, users: 1), Report.StreakBucket(current: 2, users: 1)]))
    }

    @Test("a day between the events: a row of zeros, nulls for the percentages")
    func emptyDay() {
        let d = day("2025-10-05")
        #expect(Self.report(from: d, to: d) == Report(
            from: d, to: d, days: [Report.DayRow(day: d, counts: Report.Counts())], totals: Report.Counts(),
            skills: [], streaks: []))
    }

    @Test("the mean score percent of hand-computed fractions", arguments: [
        ([(1, 3), (2, 3)], 50),                 // (1/3 + 2/3) / 2
        ([(1, 8)], 13),                          // 12.5, half up
        ([(0, 5)], 0),
        ([(1, 3), (1, 6)], 25),                  // (2/6 + 1/6) / 2 = 1/4
        ([(2, 3)], 67),                          // 66.67
        ([(1, 2), (1, 1), (1, 3)], 61),          // 11/18 = 61.1
        ([(5, 7), (3, 11), (9, 13)], 56),        // (5/7 + 3/11 + 9/13) / 3 = 1681/3003 = 55.98
    ])
    func mean(results: [(Int, Int)], percent: Int) {
        var mean = ScoreMean()
        for (score, questions) in results { mean.add(score: score, questions: questions) }
        #expect(mean.percent == percent)
        #expect(mean.count == results.count)
        // Merged from two halves: the same.
        var left = ScoreMean(), right = ScoreMean()
        for (i, (score, questions)) in results.enumerated() {
            if i % 2 == 0 { left.add(score: score, questions: questions) } else { right.add(score: score, questions: questions) }
        }
        left.merge(right)
        #expect(left.percent == percent)
    }

    @Test("the mean score percent when the exact sum overflows: question counts of distinct large primes")
    func meanOverflow() {
        let primes = [999_983, 999_979, 999_961, 999_959, 999_953, 999_931, 999_917, 999_907]
        var nearlyAll = ScoreMean(), nearlyNone = ScoreMean()
        for p in primes {
            nearlyAll.add(score: p - 1, questions: p)       // each 99.9999 %
            nearlyNone.add(score: 1, questions: p)          // each 0.0001 %
        }
        #expect(nearlyAll.percent == 100)
        #expect(nearlyNone.percent == 0)
        #expect(ScoreMean().percent == nil)
    }
}
