import Events
import Projections
import Testing

/// `leaderboard`: ranks worked by hand on a small log of October 2025, which
/// crosses the end of DST in Europe (10-26) and ends on a day whose UTC date
/// is already in November.
@Suite("leaderboard")
struct LeaderboardTests {
    /// A finished daily attempt of 8 questions with `score` right answers.
    private static func done(_ log: inout LogBuilder, _ user: String, _ attempt: String, _ at: String, score: Int) {
        log.start(at, attempt, quiz: "daily", questions: 8, daily: true, user: user)
        for q in 0..<score {
            log.add(at, .answerSelected(AnswerSelected(attempt: attempt, question: "q\(q)", choice: 0, correct: true)), user: user)
        }
        log.finish(at, attempt, user: user)
    }

    static var log: LogBuilder {
        var log = LogBuilder()
        // u-a: 1/8, 1/8, 8/8, 8/8 in October: exact mean 56.25 → 56 (the mean of rounded percents, 56.5, would give 57).
        done(&log, "u-a", "a1", "2025-10-26T02:30:00+02:00", score: 1)   // before the clocks go back
        done(&log, "u-a", "a2", "2025-10-26T02:30:00+01:00", score: 1)   // the same local hour again
        done(&log, "u-a", "a3", "2025-10-30T09:00:00+01:00", score: 8)
        done(&log, "u-a", "a4", "2025-10-31T23:30:00-07:00", score: 8)   // 11-01 in UTC, 10-31 for the learner
        done(&log, "u-a", "a5", "2025-11-01T00:10:00+01:00", score: 8)   // 10-31 in UTC, November for the learner
        for (i, d) in ["29", "30", "31", "31"].enumerated() {
            done(&log, "u-b", "b\(i)", "2025-10-\(d)T08:00:00+01:00", score: [1, 1, 8, 8][i])
        }
        for (i, d) in ["01", "02", "03"].enumerated() { done(&log, "u-c", "c\(i)", "2025-10-\(d)T08:00:00+02:00", score: 2) }
        done(&log, "u-d", "d0", "2025-10-05T08:00:00+02:00", score: 8)
        log.add("2025-10-06T08:00:00+02:00", .progressReset(ProgressReset(scope: .quizzes)), user: "u-d")
        done(&log, "u-d", "d1", "2025-10-30T08:00:00+01:00", score: 8)
        done(&log, "u-d", "d2", "2025-10-31T08:00:00+01:00", score: 8)
        for (i, d) in ["29", "30", "31"].enumerated() { done(&log, "u-e", "e\(i)", "2025-10-\(d)T08:00:00+01:00", score: 8) }
        return log
    }

    static func board(_ period: Leaderboard.Period = .month, on: String = "2025-10-15", by: Leaderboard.Measure,
                      excluding: [String] = ["u-e"], top: Int? = nil) -> [String] {
        var builder = LeaderboardBuilder(period: period, containing: day(on))
        for r in log.records { builder.add(r) }
        return builder.leaderboard(by: by, excluding: excluding, top: top).rows.map { "\($0.rank) \($0.user) \($0.value)" }
    }

    @Test("finished: quizzes started in the month (by the learner's date), after the latest reset; ties share a rank")
    func finished() {
        #expect(Self.board(by: .finished) == ["1 u-a 4", "1 u-b 4", "3 u-c 3", "4 u-d 2"])
        #expect(Self.board(by: .finished, excluding: []) == ["1 u-a 4", "1 u-b 4", "3 u-c 3", "3 u-e 3", "5 u-d 2"])
        #expect(Self.board(by: .finished, excluding: [], top: 3) == ["1 u-a 4", "1 u-b 4", "3 u-c 3", "3 u-e 3"])
        #expect(Self.board(by: .finished, top: 1) == ["1 u-a 4", "1 u-b 4"])
        #expect(Self.board(on: "2025-11-30", by: .finished) == ["1 u-a 1"])
    }

    @Test("percent: the exact mean rounded once, only with 3 finished; excluded learners take no rank")
    func percent() {
        #expect(Self.board(by: .percent) == ["1 u-a 56", "1 u-b 56", "3 u-c 25"])
        #expect(Self.board(by: .percent, excluding: []) == ["1 u-e 100", "2 u-a 56", "2 u-b 56", "4 u-c 25"])
    }

    @Test("streak: the daily streak at the period's last day, as state --day LAST")
    func streak() {
        #expect(Self.board(by: .streak) == ["1 u-b 3", "2 u-a 2", "2 u-d 2"])
        // The week of Wednesday 10-29 is Monday 10-27 to Sunday 11-02: u-a's run 10-30...11-01 is still
        // alive on 11-02; u-b's and u-d's ended on 10-31.
        #expect(Self.board(.week, on: "2025-10-29", by: .streak) == ["1 u-a 3"])
        #expect(Self.board(.week, on: "2025-10-29", by: .finished) == ["1 u-b 4", "2 u-a 3", "3 u-d 2"])
    }

    @Test("periods: ISO weeks from Monday, calendar months", arguments: [
        (Leaderboard.Period.week, "2025-10-29", "2025-10-27", "2025-11-02"),
        (.week, "2025-10-27", "2025-10-27", "2025-11-02"),
        (.week, "2025-11-02", "2025-10-27", "2025-11-02"),
        (.week, "2025-01-01", "2024-12-30", "2025-01-05"),
        (.month, "2024-02-10", "2024-02-01", "2024-02-29"),
        (.month, "2025-12-31", "2025-12-01", "2025-12-31"),
    ])
    func periods(period: Leaderboard.Period, on: String, first: String, last: String) {
        let range = period.range(containing: day(on))
        #expect(range.first == day(first) && range.last == day(last))
    }

    @Test("the exclusion file: one id a line, CRLF and blank lines tolerated, exact match")
    func excludedFile() {
        #expect(Leaderboard.excludedUsers(Array("u-e\r\n\nu-x\n".utf8)) == ["u-e", "u-x"])
        #expect(Self.board(by: .finished, excluding: ["U-A"]).first == "1 u-a 4")
    }
}
