import Events
@testable import Projections
import Testing

/// The streak's day walk (projections.md, `streak`) on calendars worked out
/// by hand, day by day, in the comments: ✓ a finished daily quiz, – a day
/// without one, ❄ a freeze spent, ‖ a paused day. March 2025; D is the state's day.
@Suite("The streak with freezes and pauses: calendars worked by hand")
struct StreakCalendarTests {
    func run(_ start: String, _ end: String, _ days: Int, frozen: [String] = [], paused: Int = 0) -> Streak.Run {
        Streak.Run(start: day("2025-03-\(start)"), end: day("2025-03-\(end)"), days: days,
                   frozen: frozen.map { day("2025-03-\($0)") }, paused: paused)
    }

    func done(_ log: inout LogBuilder, _ days: String...) {
        for d in days { log.dailyDone("2025-03-\(d)", "a-\(d)", correct: 1, questions: 1) }
    }

    func state(_ log: LogBuilder, _ d: String, asOf: AsOf? = nil) -> LearnerState { fold(log, day: "2025-03-\(d)", asOf: asOf) }

    @Test("a freeze covers one missed day: the run goes on across it without counting it")
    func oneFreeze() {
        // 01 ✓ (+1 freeze: held 1) · 02 ✓ · 03 – ❄ (held 0) · 04 ✓ · 05 ✓ = D: one run of 4 active days.
        var log = LogBuilder()
        done(&log, "01")
        log.freeze("2025-03-01T20:00:00Z", 1)
        done(&log, "02", "04", "05")
        #expect(state(log, "05").streak == Streak(current: 4, activeToday: true, longest: 4,
                                                  runs: [run("01", "05", 4, frozen: ["03"])],
                                                  freezes: Streak.Freezes(held: 0, granted: 1, used: 1)))
        // The same days without the grant: 03 ends the first run (the version-1 rule).
        var plain = LogBuilder()
        done(&plain, "01", "02", "04", "05")
        #expect(state(plain, "05").streak == Streak(current: 2, activeToday: true, longest: 2,
                                                    runs: [run("01", "02", 2), run("04", "05", 2)]))
    }

    @Test("two freezes, three missed days: both are spent, then the run ends at its last active day")
    func twoFreezesThreeMissedDays() {
        // 01 ✓ (+2: held 2) · 02 ✓ · 03 – ❄ (1) · 04 – ❄ (0) · 05 – ends the run at 02 · 06 ✓ new run · 07 = D, not done yet.
        var log = LogBuilder()
        log.freeze("2025-03-01T07:00:00Z", 2, .purchase)
        done(&log, "01", "02", "06")
        #expect(state(log, "07").streak == Streak(current: 1, activeToday: false, longest: 2,
                                                  runs: [run("01", "02", 2, frozen: ["03", "04"]), run("06", "06", 1)],
                                                  freezes: Streak.Freezes(held: 0, granted: 2, used: 2)))
    }

    @Test("a freeze granted on the missed day itself covers it: grants are added before the day is judged")
    func grantOnTheMissedDay() {
        // 01 ✓ · 02 ✓ · 03 – (+1 at 21:00: held 1) ❄ (0) · 04 ✓ = D.
        var log = LogBuilder()
        done(&log, "01", "02")
        log.freeze("2025-03-03T21:00:00Z", 1, .purchase)
        done(&log, "04")
        #expect(state(log, "04").streak == Streak(current: 3, activeToday: true, longest: 3,
                                                  runs: [run("01", "04", 3, frozen: ["03"])],
                                                  freezes: Streak.Freezes(held: 0, granted: 1, used: 1)))
        // On 03 itself (D, not over yet) the freeze is held, not spent.
        #expect(state(log, "03").streak == Streak(current: 2, activeToday: false, longest: 2, runs: [run("01", "02", 2)],
                                                  freezes: Streak.Freezes(held: 1, granted: 1, used: 0)))
    }

    @Test("a grant over the cap: freeze_overflow at that grant, the excess lost, whatever D is")
    func overflow() {
        // 01 ✓ (+1: held 1) · 02 ✓ (+2: held 2, 1 lost) · 03 – ❄ (1) · 04 – ❄ (0) · 05 = D: alive; at D = 06, 05 ends it.
        var log = LogBuilder()
        done(&log, "01")
        log.freeze("2025-03-01T20:00:00Z", 1)
        done(&log, "02")
        let over = log.freeze("2025-03-02T20:00:00Z", 2)
        let lost = Anomaly(seq: over, kind: .freezeOverflow, detail: "1 streak freeze lost: at most 2 are held")
        let at05 = state(log, "05")
        #expect(at05.streak == Streak(current: 2, activeToday: false, longest: 2, runs: [run("01", "02", 2, frozen: ["03", "04"])],
                                      freezes: Streak.Freezes(held: 0, granted: 3, used: 2)))
        #expect(at05.anomalies == [lost])
        let at06 = state(log, "06")
        #expect(at06.streak == Streak(current: 0, activeToday: false, longest: 2, runs: [run("01", "02", 2, frozen: ["03", "04"])],
                                      freezes: Streak.Freezes(held: 0, granted: 3, used: 2)))
        // Anomalies are not limited to D: at D = 01 the grant of 02 is not counted, but it still overflows.
        let at01 = state(log, "01")
        #expect(at01.streak.freezes == Streak.Freezes(held: 1, granted: 1, used: 0))
        #expect(at01.anomalies == [lost])
    }

    @Test("a pause across a week: its days keep the run and count nothing; activity on a paused day counts")
    func pauseAcrossAWeek() {
        // 01 ✓ · 02 ✓ (pause 03-09 planned that evening) · 03 ‖ · 04 ‖ · 05 ✓ · 06 ‖ · 07 ‖ · 08 ‖ · 09 ‖ · 10 ✓ = D.
        var log = LogBuilder()
        done(&log, "01", "02")
        log.pause("2025-03-02T21:00:00Z", from: "2025-03-03", to: "2025-03-09")
        done(&log, "05", "10")
        #expect(state(log, "10").streak == Streak(current: 4, activeToday: true, longest: 4, runs: [run("01", "10", 4, paused: 6)]))
        // At D = 07, a paused day (step 3 comes before today's step 4): 03, 04, 06, 07 paused so far.
        #expect(state(log, "07").streak == Streak(current: 3, activeToday: false, longest: 3, runs: [run("01", "05", 3, paused: 4)]))
        // At D = 11 the pause is over: 11 is today, still alive; at D = 12, 11 ends the run.
        #expect(state(log, "11").streak.current == 4)
        #expect(state(log, "12").streak.current == 0)
    }

    @Test("a run alive at D over frozen days (the version-1 rule would say 0)")
    func aliveOverFrozenDays() {
        // 01 ✓ (+2: held 2) · 02 ✓ · 03 – ❄ · 04 – ❄ · 05 = D: the run goes on, current 2.
        var log = LogBuilder()
        done(&log, "01")
        log.freeze("2025-03-01T20:00:00Z", 2)
        done(&log, "02")
        #expect(state(log, "05").streak == Streak(current: 2, activeToday: false, longest: 2, runs: [run("01", "02", 2, frozen: ["03", "04"])],
                                                  freezes: Streak.Freezes(held: 0, granted: 2, used: 2)))
        done(&log, "05")
        #expect(state(log, "05").streak == Streak(current: 3, activeToday: true, longest: 3, runs: [run("01", "05", 3, frozen: ["03", "04"])],
                                                  freezes: Streak.Freezes(held: 0, granted: 2, used: 2)))
    }

    @Test("--as-of before a grant synced late: without it the missed day ends the run; with it the two runs are one")
    func asOfBeforeALateGrant() {
        // 01 ✓ · 02 ✓ · 03 – · 04 ✓ · 05 ✓ = D (seq 1-12); a reward for 02 (at 02 20:00) reaches the log last (seq 13).
        var log = LogBuilder()
        done(&log, "01", "02", "04", "05")
        let grant = log.freeze("2025-03-02T20:00:00Z", 1)
        #expect(grant == 13)
        #expect(state(log, "05", asOf: .seq(12)).streak == Streak(current: 2, activeToday: true, longest: 2,
                                                                   runs: [run("01", "02", 2), run("04", "05", 2)]))
        #expect(state(log, "05").streak == Streak(current: 4, activeToday: true, longest: 4, runs: [run("01", "05", 4, frozen: ["03"])],
                                                  freezes: Streak.Freezes(held: 0, granted: 1, used: 1)))
    }

    @Test("a reset leaves freezes held; a freeze spent on days the reset removed is back in hand")
    func resetKeepsFreezes() {
        // +2 on 01 (held 2) · 01 ✓ · 02 ✓ · reset (quizzes) on 03 at 08:00 · 03 ✓ at 09:00 = D.
        var log = LogBuilder()
        log.freeze("2025-03-01T08:00:00Z", 2, .purchase)
        done(&log, "01", "02")
        log.reset("2025-03-03T08:00:00Z", .quizzes)
        done(&log, "03")
        #expect(state(log, "03").streak == Streak(current: 1, activeToday: true, longest: 1, runs: [run("03", "03", 1)],
                                                  freezes: Streak.Freezes(held: 2, granted: 2, used: 0)))
        // 04 – ❄ (held 1) · 05 = D.
        #expect(state(log, "05").streak == Streak(current: 1, activeToday: false, longest: 1, runs: [run("03", "03", 1, frozen: ["04"])],
                                                  freezes: Streak.Freezes(held: 1, granted: 2, used: 1)))

        // +1 on 01 · 01 ✓ · 02 – ❄ · 03 ✓: used 1. A reset (all) on 04: the run is gone, and so is the day it froze.
        var spent = LogBuilder()
        spent.freeze("2025-03-01T08:00:00Z", 1)
        done(&spent, "01", "03")
        #expect(state(spent, "03").streak.freezes == Streak.Freezes(held: 0, granted: 1, used: 1))
        spent.reset("2025-03-04T08:00:00Z", .all)
        #expect(state(spent, "04").streak == Streak(current: 0, activeToday: false, longest: 0, runs: [],
                                                    freezes: Streak.Freezes(held: 1, granted: 1, used: 0)))
    }

    @Test("streak_7 counts the active days of one run: frozen and paused days neither count nor break it")
    func streakSeven() {
        // 01 ✓ 02 ✓ 03 ✓ · 04 – ❄ · 05 ✓ 06 ✓ 07 ✓ 08 ✓: the 7th active day is 08.
        var log = LogBuilder()
        log.freeze("2025-03-01T08:00:00Z", 1)
        done(&log, "01", "02", "03", "05", "06", "07", "08")
        #expect(fold(log).achievements == [Achievement(.streak7, day: day("2025-03-08"))])
        // 10 ✓ 11 ✓ 12 ✓ · 13-14 ‖ (planned on 12) · 15 ✓ 16 ✓ 17 ✓ · 18 ✓: dated 18 (7th active day).
        var paused = LogBuilder()
        done(&paused, "10", "11", "12")
        paused.pause("2025-03-12T21:00:00Z", from: "2025-03-13", to: "2025-03-14")
        done(&paused, "15", "16", "17", "18")
        #expect(fold(paused).achievements == [Achievement(.streak7, day: day("2025-03-18"))])
        // Without the freeze, 04 ends the first run: no 7 active days in one run; a grant for 04 synced late joins them.
        var late = LogBuilder()
        done(&late, "01", "02", "03", "05", "06", "07", "08")
        #expect(fold(late).achievements == [])
        late.freeze("2025-03-04T10:00:00Z", 1)
        #expect(fold(late).achievements == [Achievement(.streak7, day: day("2025-03-08"))])
    }

    @Test("docs/projections.md's worked example: a reward, a purchase, a pause with activity inside it")
    func workedExample() {
        var log = LogBuilder()
        log.freeze("2025-03-01T08:00:00Z", 1)
        done(&log, "01", "02", "04", "05")
        log.freeze("2025-03-06T12:00:00Z", 2, .purchase)
        log.pause("2025-03-08T21:00:00Z", from: "2025-03-10", to: "2025-03-12")
        done(&log, "09", "11", "15")
        let first = run("01", "05", 4, frozen: ["03", "06", "07"]), second = run("09", "11", 2, paused: 2)
        #expect(state(log, "15").streak == Streak(current: 1, activeToday: true, longest: 4,
                                                  runs: [first, second, run("15", "15", 1)],
                                                  freezes: Streak.Freezes(held: 0, granted: 3, used: 3)))
        #expect(state(log, "08").streak == Streak(current: 4, activeToday: false, longest: 4, runs: [first],
                                                  freezes: Streak.Freezes(held: 0, granted: 3, used: 3)))
        #expect(state(log, "12").streak == Streak(current: 2, activeToday: false, longest: 4, runs: [first, second],
                                                  freezes: Streak.Freezes(held: 0, granted: 3, used: 3)))
    }

    @Test("--streak-on any: the same walk over any quiz, puzzle and submission days")
    func streakOnAny() {
        // 01 puzzle · 02 – ❄ · 03 submission = D.
        var log = LogBuilder()
        log.freeze("2025-03-01T08:00:00Z", 1)
        log.puzzle("2025-03-01T09:00:00Z", "p-1")
        log.submit("2025-03-03T09:00:00Z", "l-1", answers: [])
        #expect(fold(log, day: "2025-03-03", streakOn: .any).streak
                == Streak(current: 2, activeToday: true, longest: 2, runs: [run("01", "03", 2, frozen: ["02"])],
                          freezes: Streak.Freezes(held: 0, granted: 1, used: 1)))
        #expect(fold(log, day: "2025-03-03").streak
                == Streak(current: 0, activeToday: false, longest: 0, runs: [], freezes: Streak.Freezes(held: 1, granted: 1, used: 0)))
    }
}
