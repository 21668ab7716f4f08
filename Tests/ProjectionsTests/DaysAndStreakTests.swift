import Events
import Projections
import Testing

@Suite("Days and streaks")
struct DaysAndStreakTests {
    @Test("alive when today is not done yet; 0 after a gap day; active_today once done")
    func aliveAndBroken() {
        var log = LogBuilder()
        log.dailyDone("2025-10-19", "a-1")
        log.dailyDone("2025-10-20", "a-2")
        let alive = fold(log, day: "2025-10-21").streak
        #expect(alive == Streak(current: 2, activeToday: false, longest: 2,
                                runs: [Streak.Run(start: day("2025-10-19"), end: day("2025-10-20"))]))
        #expect(fold(log, day: "2025-10-22").streak.current == 0)
        log.dailyDone("2025-10-21", "a-3")
        #expect(fold(log).streak == Streak(current: 3, activeToday: true, longest: 3,
                                           runs: [Streak.Run(start: day("2025-10-19"), end: day("2025-10-21"))]))
    }

    @Test("a gap splits runs; longest and runs are up to D only")
    func gapAndRunsUpToD() {
        var log = LogBuilder()
        for (i, d) in ["2025-10-01", "2025-10-02", "2025-10-03", "2025-10-05", "2025-10-06"].enumerated() {
            log.dailyDone(d, "a-\(i)")
        }
        #expect(fold(log).streak == Streak(current: 2, activeToday: true, longest: 3, runs: [
            Streak.Run(start: day("2025-10-01"), end: day("2025-10-03")),
            Streak.Run(start: day("2025-10-05"), end: day("2025-10-06"))]))
        #expect(fold(log, day: "2025-10-02").streak == Streak(current: 2, activeToday: true, longest: 2, runs: [
            Streak.Run(start: day("2025-10-01"), end: day("2025-10-02"))]))
    }

    @Test("abandoned and non-daily attempts do not count in daily mode; any counts quizzes, puzzles, submissions")
    func streakOnAny() {
        var log = LogBuilder()
        log.start("2025-10-01T09:00:00Z", "a-1", quiz: "history-1", daily: false)
        log.finish("2025-10-01T09:05:00Z", "a-1")
        log.puzzle("2025-10-02T09:00:00Z", "p-1")
        log.puzzle("2025-10-03T09:00:00Z", "p-2", completed: false)
        log.submit("2025-10-03T10:00:00Z", "l-1", answers: [])
        log.start("2025-10-04T09:00:00Z", "a-2")
        log.abandon("2025-10-04T09:05:00Z", "a-2")
        #expect(fold(log, day: "2025-10-04").streak == .none)
        #expect(fold(log, day: "2025-10-04", streakOn: .any).streak == Streak(
            current: 3, activeToday: false, longest: 3,
            runs: [Streak.Run(start: day("2025-10-01"), end: day("2025-10-03"))]))
    }

    @Test("days are calendar dates in each event's own offset: across a DST change")
    func acrossDST() {
        // Europe/Berlin switches from +01:00 to +02:00 on 2025-03-30 (a 23-hour day).
        var log = LogBuilder()
        log.dailyDone("2025-03-29", "a-1", offset: "+01:00")
        log.dailyDone("2025-03-30", "a-2", offset: "+02:00")
        log.dailyDone("2025-03-31", "a-3", offset: "+02:00")
        #expect(fold(log).streak == Streak(current: 3, activeToday: true, longest: 3,
                                           runs: [Streak.Run(start: day("2025-03-29"), end: day("2025-03-31"))]))
        // And back in autumn (a 25-hour day, +02:00 to +01:00 on 2025-10-26).
        var autumn = LogBuilder()
        autumn.start("2025-10-25T23:30:00+02:00", "b-1", questions: 1)
        autumn.finish("2025-10-25T23:40:00+02:00", "b-1")
        autumn.start("2025-10-26T23:30:00+01:00", "b-2", questions: 1)
        autumn.finish("2025-10-26T23:40:00+01:00", "b-2")
        #expect(fold(autumn).streak.current == 2)
    }

    @Test("a learner flying +09:00 to -08:00: D is the local date of the latest instant")
    func flyingWest() {
        var log = LogBuilder()
        // Tokyo, the morning of 2 March (UTC: 1 March 22:00).
        log.start("2025-03-02T07:00:00+09:00", "a-1", quiz: "daily-0302", questions: 1)
        log.finish("2025-03-02T07:05:00+09:00", "a-1")
        // Landed in Seattle: 1 March 17:00 local is 2 March 01:00 UTC, later than the above.
        log.start("2025-03-01T17:00:00-08:00", "a-2", quiz: "daily-0301", questions: 1)
        let state = fold(log)
        let first = day("2025-03-01")
        #expect(state.day == first)
        #expect(state.dailyQuiz == DailyQuiz(day: first, status: .inProgress, quiz: "daily-0301", attempt: "a-2",
                                             total: 1, attempts: 1))
        // 2 March is after D: no run, no history yet.
        #expect(state.streak == .none)
        #expect(state.history == [])
        // Asked for 2 March, the Tokyo attempt is there.
        #expect(fold(log, day: "2025-03-02").dailyQuiz.status == .completed)
    }

    @Test("a late-synced event from an earlier day does not move D back; ties go to the later in log order")
    func defaultDay() {
        var log = LogBuilder()
        log.dailyDone("2025-10-21", "a-1")
        log.start("2025-10-19T08:00:00Z", "a-0", quiz: "late", daily: false)
        #expect(fold(log).day == day("2025-10-21"))
        // Same instant, different local dates: the later line wins.
        var tie = LogBuilder()
        tie.grant("2025-10-21T23:30:00-01:00", 1)
        tie.grant("2025-10-22T00:30:00Z", 1)
        #expect(fold(tie).day == day("2025-10-22"))
        var reversed = LogBuilder()
        reversed.grant("2025-10-22T00:30:00Z", 1)
        reversed.grant("2025-10-21T23:30:00-01:00", 1)
        #expect(fold(reversed).day == day("2025-10-21"))
    }

    @Test("history: the window of --days N ends at D, newest first; best attempt, earliest finished on a tie")
    func historyWindow() {
        var log = LogBuilder()
        log.dailyDone("2025-10-18", "a-1", correct: 2)
        log.dailyDone("2025-10-19", "a-2", correct: 3, quiz: "first")
        log.start("2025-10-19T12:00:00Z", "a-3", quiz: "second")
        log.finish("2025-10-19T12:01:00Z", "a-3")
        log.start("2025-10-19T13:00:00Z", "a-4", quiz: "third", questions: 4)
        for q in 1...3 { log.answer("2025-10-19T13:0\(q):00Z", "a-4", "q\(q)") }
        log.finish("2025-10-19T13:10:00Z", "a-4")
        log.start("2025-10-19T14:00:00Z", "a-5", quiz: "fourth", questions: 3)
        for q in 1...3 { log.answer("2025-10-19T14:0\(q):00Z", "a-5", "q\(q)") }
        log.finish("2025-10-19T14:10:00Z", "a-5")
        log.dailyDone("2025-10-21", "a-6", correct: 1, questions: 8)
        let history = fold(log, day: "2025-10-21", days: 3).history
        #expect(history == [
            HistoryEntry(day: day("2025-10-21"), quiz: "daily-2025-10-21", bestScore: 1, total: 8,
                         completedAt: stamp("2025-10-21T09:10:00Z")),
            // "first", "third" and "fourth" all scored 3: "first" finished earliest.
            HistoryEntry(day: day("2025-10-19"), quiz: "first", bestScore: 3, total: 5,
                         completedAt: stamp("2025-10-19T09:10:00Z")),
        ])
        #expect(history.map(\.percent) == [13, 60])
        #expect(fold(log, day: "2025-10-21", days: 4).history.map(\.day) == ["2025-10-21", "2025-10-19", "2025-10-18"].map(day))
        #expect(fold(log, day: "2025-10-20", days: 1).history == [])
        #expect(fold(log, day: "2025-10-19", days: 1).history.map(\.day) == [day("2025-10-19")])
    }
}
