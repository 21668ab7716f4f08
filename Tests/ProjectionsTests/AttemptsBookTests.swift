import Events
import Testing
@testable import Projections

@Suite("Attempts book and the streak rule")
struct AttemptsBookTests {
    @Test("an attempt's events are on its start day, first answers only, after_end and resets")
    func attemptDaysAndAnomalies() {
        var log = LogBuilder()
        log.start("2025-10-21T23:55:00+03:00", "a-1")
        log.answer("2025-10-22T00:05:00+03:00", "a-1", "q1")
        log.answer("2025-10-22T00:06:00+03:00", "a-1", "q1", correct: false)
        log.finish("2025-10-22T00:07:00+03:00", "a-1")
        log.answer("2025-10-22T00:08:00+03:00", "a-1", "q2")
        log.answer("2025-10-22T00:09:00+03:00", "a-9", "q1")
        log.reset("2025-10-22T01:00:00+03:00", .quizzes)
        log.start("2025-10-22T01:00:00+03:00", "a-1")
        var book = AttemptsBook()
        let steps = log.envelopes.map { book.apply($0) }
        // The reused id's quiz.started starts nothing: it is on its own day (10-22), not on a-1's.
        #expect(steps.map(\.day.description) == ["2025-10-21", "2025-10-21", "2025-10-21", "2025-10-21",
                                                 "2025-10-21", "2025-10-22", "2025-10-22", "2025-10-22"])
        #expect(steps.map { $0.anomalies.map(\.kind) } == [[], [], [.duplicateAnswer], [], [.afterEnd],
                                                             [.unknownAttempt], [], [.duplicateAttempt]])
        let a1 = book.attempt("a-1")
        #expect(a1?.score == 1)
        #expect(a1?.answered == 1)
        #expect(a1?.status == .finished)
        #expect(a1.map { book.counts($0) } == false)
        #expect(book.quizEpoch == 1)
    }

    @Test("hint counts per question, hint_limit from the third, answer after a hint is marked")
    func hints() {
        var log = LogBuilder()
        log.start("2025-10-21T10:00:00Z", "a-1")
        log.hint("2025-10-21T10:00:01Z", "a-1", "q1")
        log.hint("2025-10-21T10:00:02Z", "a-1", "q1", .reveal)
        log.hint("2025-10-21T10:00:03Z", "a-1", "q1")
        log.answer("2025-10-21T10:00:04Z", "a-1", "q1")
        log.answer("2025-10-21T10:00:05Z", "a-1", "q2")
        var book = AttemptsBook()
        let steps = log.envelopes.map { book.apply($0) }
        #expect(steps.map { $0.anomalies.map(\.kind) } == [[], [], [], [.hintLimit], [], []])
        #expect(book.attempt("a-1")?.answers.map(\.afterHint) == [true, false])
    }

    @Test("streak: alive when today is not done yet, broken by a gap, runs cut at D")
    func streakRule() {
        let days = ActiveDays(["2025-10-01", "2025-10-02", "2025-10-04", "2025-10-05", "2025-10-06"].map(day))
        #expect(Streak.at(day("2025-10-06"), activeDays: days)
            == Streak(current: 3, activeToday: true, longest: 3, runs: [
                Streak.Run(start: day("2025-10-01"), end: day("2025-10-02")),
                Streak.Run(start: day("2025-10-04"), end: day("2025-10-06"))]))
        #expect(Streak.at(day("2025-10-07"), activeDays: days).current == 3)
        #expect(Streak.at(day("2025-10-07"), activeDays: days).activeToday == false)
        #expect(Streak.at(day("2025-10-08"), activeDays: days).current == 0)
        #expect(Streak.at(day("2025-10-05"), activeDays: days)
            == Streak(current: 2, activeToday: true, longest: 2, runs: [
                Streak.Run(start: day("2025-10-01"), end: day("2025-10-02")),
                Streak.Run(start: day("2025-10-04"), end: day("2025-10-05"))]))
        #expect(Streak.at(day("2025-10-03"), activeDays: days).current == 2)
    }
}
