import Foundation
import Testing

/// The hand-worked calendars of `StreakCalendarTests` (ProjectionsTests) through
/// the CLI: appended as lines with `append`, read back with `state --json`,
/// member by member (`streak.current`, `active_today`, `longest`, each run's
/// `start`, `end`, `days`, `frozen`, `paused`, and `freezes`), and the anomalies' kinds.
@Suite("streak calendars through append and state --json")
struct StreakCalendarCLITests {
    /// A calendar: the lines to append, then what `state --json --day D` prints of the streak.
    struct Calendar {
        var name: String
        var lines: [String] = []

        mutating func done(_ days: String...) {
            for d in days {
                let at = "2025-03-\(d)T09:0"
                lines.append(#"{"at":"\#(at)0:00Z","user":"u","type":"quiz.started","data":{"attempt":"a-\#(d)","quiz":"daily","questions":1,"daily":true}}"#)
                lines.append(#"{"at":"\#(at)1:00Z","user":"u","type":"answer.selected","data":{"attempt":"a-\#(d)","question":"q1","choice":0,"correct":true}}"#)
                lines.append(#"{"at":"\#(at)2:00Z","user":"u","type":"quiz.finished","data":{"attempt":"a-\#(d)"}}"#)
            }
        }

        mutating func freeze(_ at: String, _ amount: Int, _ reason: String = "reward") {
            lines.append(#"{"at":"2025-03-\#(at)Z","user":"u","type":"streak.freeze_granted","data":{"amount":\#(amount),"reason":"\#(reason)"}}"#)
        }

        mutating func pause(_ at: String, _ from: String, _ to: String) {
            lines.append(#"{"at":"2025-03-\#(at)Z","user":"u","type":"streak.paused","data":{"from":"2025-03-\#(from)","to":"2025-03-\#(to)"}}"#)
        }

        mutating func reset(_ at: String, _ scope: String) {
            lines.append(#"{"at":"2025-03-\#(at)Z","user":"u","type":"progress.reset","data":{"scope":"\#(scope)"}}"#)
        }
    }

    /// What the streak member should hold.
    struct Expected {
        var day: String
        var asOf: String? = nil
        var current: Int, activeToday: Bool, longest: Int
        /// `start-end/days/frozen days (dd, comma separated)/paused`, e.g. `01-05/4/03/0`.
        var runs: [String]
        var freezes: [Int] = [0, 0, 0]
        var anomalies: [String] = []
    }

    static func calendars() -> [(Calendar, [Expected])] {
        var one = Calendar(name: "a freeze covers one missed day")
        one.done("01"); one.freeze("01T20:00:00", 1); one.done("02", "04", "05")
        var two = Calendar(name: "two freezes, three missed days")
        two.freeze("01T07:00:00", 2, "purchase"); two.done("01", "02", "06")
        var onTheDay = Calendar(name: "a grant on the missed day")
        onTheDay.done("01", "02"); onTheDay.freeze("03T21:00:00", 1, "purchase"); onTheDay.done("04")
        var over = Calendar(name: "a grant over the cap")
        over.done("01"); over.freeze("01T20:00:00", 1); over.done("02"); over.freeze("02T20:00:00", 2)
        var paused = Calendar(name: "a pause across a week")
        paused.done("01", "02"); paused.pause("02T21:00:00", "03", "09"); paused.done("05", "10")
        var alive = Calendar(name: "a run alive at D over frozen days")
        alive.done("01"); alive.freeze("01T20:00:00", 2); alive.done("02")
        var late = Calendar(name: "--as-of before a grant synced late")
        late.done("01", "02", "04", "05"); late.freeze("02T20:00:00", 1)
        var reset = Calendar(name: "a reset leaves freezes held")
        reset.freeze("01T08:00:00", 2, "purchase"); reset.done("01", "02"); reset.reset("03T08:00:00", "quizzes"); reset.done("03")
        return [
            (one, [Expected(day: "05", current: 4, activeToday: true, longest: 4, runs: ["01-05/4/03/0"], freezes: [0, 1, 1])]),
            (two, [Expected(day: "07", current: 1, activeToday: false, longest: 2, runs: ["01-02/2/03,04/0", "06-06/1//0"], freezes: [0, 2, 2])]),
            (onTheDay, [Expected(day: "04", current: 3, activeToday: true, longest: 3, runs: ["01-04/3/03/0"], freezes: [0, 1, 1]),
                        Expected(day: "03", current: 2, activeToday: false, longest: 2, runs: ["01-02/2//0"], freezes: [1, 1, 0])]),
            (over, [Expected(day: "05", current: 2, activeToday: false, longest: 2, runs: ["01-02/2/03,04/0"], freezes: [0, 3, 2],
                             anomalies: ["8 freeze_overflow"]),
                    Expected(day: "06", current: 0, activeToday: false, longest: 2, runs: ["01-02/2/03,04/0"], freezes: [0, 3, 2],
                             anomalies: ["8 freeze_overflow"]),
                    Expected(day: "01", current: 1, activeToday: true, longest: 1, runs: ["01-01/1//0"], freezes: [1, 1, 0],
                             anomalies: ["8 freeze_overflow"])]),
            (paused, [Expected(day: "10", current: 4, activeToday: true, longest: 4, runs: ["01-10/4//6"]),
                      Expected(day: "07", current: 3, activeToday: false, longest: 3, runs: ["01-05/3//4"])]),
            (alive, [Expected(day: "05", current: 2, activeToday: false, longest: 2, runs: ["01-02/2/03,04/0"], freezes: [0, 2, 2]),
                     Expected(day: "06", current: 0, activeToday: false, longest: 2, runs: ["01-02/2/03,04/0"], freezes: [0, 2, 2])]),
            (late, [Expected(day: "05", asOf: "12", current: 2, activeToday: true, longest: 2, runs: ["01-02/2//0", "04-05/2//0"]),
                    Expected(day: "05", current: 4, activeToday: true, longest: 4, runs: ["01-05/4/03/0"], freezes: [0, 1, 1])]),
            (reset, [Expected(day: "03", current: 1, activeToday: true, longest: 1, runs: ["03-03/1//0"], freezes: [2, 2, 0]),
                     Expected(day: "05", current: 1, activeToday: false, longest: 1, runs: ["03-03/1/04/0"], freezes: [1, 2, 1])]),
        ]
    }

    @Test("each calendar, member by member", arguments: 0..<8)
    func calendar(_ k: Int) throws {
        let (calendar, expectations) = Self.calendars()[k]
        let dir = try TemporaryDirectory()
        let log = dir.path("log")
        let appended = try CLI.run(["append", log], input: calendar.lines.joined(separator: "\n") + "\n")
        try #require(appended.status == 0, "\(calendar.name): \(appended.stderr)")
        for e in expectations {
            var args = ["state", log, "--user", "u", "--day", "2025-03-\(e.day)", "--json"]
            if let asOf = e.asOf { args += ["--as-of", asOf] }
            let r = try CLI.run(args)
            try #require(r.status == 0, "\(r.stderr)")
            let state = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let streak = try #require(state["streak"] as? [String: Any])
            let at = "\(calendar.name), D \(e.day)\(e.asOf.map { ", as of \($0)" } ?? "")"
            #expect(streak["current"] as? Int == e.current, "\(at)")
            #expect(streak["active_today"] as? Bool == e.activeToday, "\(at)")
            #expect(streak["longest"] as? Int == e.longest, "\(at)")
            let runs = try #require(streak["runs"] as? [[String: Any]])
            let printed = runs.map { run -> String in
                let d = { (key: String) in ((run[key] as? String) ?? "?").suffix(2) }
                let frozen = ((run["frozen"] as? [String]) ?? []).map { $0.suffix(2) }.joined(separator: ",")
                return "\(d("start"))-\(d("end"))/\(run["days"] as? Int ?? -1)/\(frozen)/\(run["paused"] as? Int ?? -1)"
            }
            #expect(printed == e.runs, "\(at)")
            let freezes = try #require(streak["freezes"] as? [String: Any])
            #expect(["held", "granted", "used"].map { freezes[$0] as? Int } == e.freezes, "\(at)")
            let anomalies = try #require(state["anomalies"] as? [[String: Any]])
            #expect(anomalies.map { "\($0["seq"] as? Int ?? 0) \($0["kind"] as? String ?? "")" } == e.anomalies, "\(at)")
        }
    }

    @Test("a pause starting before the day of its own at is refused at append, naming from; nothing is written")
    func backdatedPause() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("log")
        var c = Calendar(name: "backdated")
        c.done("01")
        c.pause("03T10:00:00", "02", "05")
        let r = try CLI.run(["append", log], input: c.lines.joined(separator: "\n") + "\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains("data.from") && r.stderr.contains("invalid_data"), "\(r.stderr)")
        #expect(dir.bytes("log").isEmpty)
        // In the learner's own zone: 2025-03-03T01:00+09:00 is on the 3rd, so a pause from the 3rd is today's.
        let today = #"{"at":"2025-03-03T01:00:00+09:00","user":"u","type":"streak.paused","data":{"from":"2025-03-03","to":"2025-03-03"}}"#
        #expect(try CLI.run(["append", log], input: today + "\n").status == 0)
        let line = String(decoding: dir.bytes("log"), as: UTF8.self)
        #expect(line.hasPrefix(#"{"v":2,"seq":1,"id":"#), "\(line)")
    }

    @Test("explain streak.current names the frozen and paused days and the grant and pause behind them")
    func explain() throws {
        // 10-01 +1 (seq 1) ✓ (2, 3) · 10-02 ✓ (4, 5) · 10-03 – ❄ paid by seq 1 · 10-04 ✓ (6, 7), pause 05-06 planned (8)
        // · 10-05 ‖ · 10-06 ‖ · 10-07 ✓ (9, 10) = D: current 4.
        let e = LogFixture.event
        func done(_ d: String) -> [String] {
            [e("s\(d)", "2025-10-\(d)T09:00:00Z", "u", "quiz.started", #"{"attempt":"a\#(d)","quiz":"q","questions":1,"daily":true}"#),
             e("f\(d)", "2025-10-\(d)T09:05:00Z", "u", "quiz.finished", #"{"attempt":"a\#(d)"}"#)]
        }
        let lines = [e("g", "2025-10-01T08:00:00Z", "u", "streak.freeze_granted", #"{"amount":1,"reason":"reward"}"#)]
            + done("01") + done("02") + done("04")
            + [e("p", "2025-10-04T21:00:00Z", "u", "streak.paused", #"{"from":"2025-10-05","to":"2025-10-06"}"#)] + done("07")
        let dir = try TemporaryDirectory()
        let log = dir.path("log")
        try LogFixture.write(lines, to: log)
        let r = try CLI.run(["explain", log, "--user", "u", "streak.current", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        #expect(object["value"] as? Int == 4)
        let events = try #require(object["events"] as? [[String: Any]])
        #expect(events.map { $0["seq"] as? Int } == [1, 3, 5, 7, 8, 10])
        let summaries = Dictionary(uniqueKeysWithValues: events.map { ($0["seq"] as? Int ?? 0, $0["summary"] as? String ?? "") })
        #expect(summaries[1]?.hasSuffix("· paid for frozen day 2025-10-03") == true, "\(summaries[1] ?? "")")
        #expect(summaries[8]?.hasSuffix("· paused days 2025-10-05, 2025-10-06 of the run") == true, "\(summaries[8] ?? "")")
        #expect((object["rule"] as? String)?.contains("freeze") == true)
        // The text form prints the same lines.
        let text = try CLI.run(["explain", log, "--user", "u", "streak.current"])
        #expect(text.stdout.contains("streak.freeze_granted  1 streak freeze granted (reward) · paid for frozen day 2025-10-03"), "\(text.stdout)")
    }
}
