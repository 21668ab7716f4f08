import Foundation
import Testing

@Suite("report: the day rules, empty days, CSV, text, ranges and errors")
struct ReportTests {
    typealias E = LogFixture

    /// ana starts a daily quiz at 23:50 on 03-01 and finishes after midnight;
    /// nothing happens on 03-02 and 03-03; ben plays on 03-01 and 03-04.
    static let midnightLog = [
        E.event("g1", "2025-03-01T06:00:00Z", "ana", "hints.granted", #"{"amount":2,"reason":"seed"}"#),
        E.event("p1", "2025-03-01T10:00:00-08:00", "ben", "puzzle.completed", #"{"puzzle":"c-1","encoding":"caesar","seconds":42.5}"#),
        E.event("s1", "2025-03-01T23:50:00+03:00", "ana", "quiz.started", #"{"attempt":"a-1","quiz":"daily-1","questions":2,"daily":true}"#),
        E.event("s2", "2025-03-01T23:55:00+03:00", "ana", "answer.selected", #"{"attempt":"a-1","question":"q1","choice":1,"correct":true,"skill":"inference"}"#),
        E.event("s3", "2025-03-02T00:03:00+03:00", "ana", "hint.used", #"{"attempt":"a-1","question":"q2","hint":"reveal"}"#),
        E.event("s4", "2025-03-02T00:04:00+03:00", "ana", "answer.selected", #"{"attempt":"a-1","question":"q2","choice":0,"correct":false,"skill":"tone"}"#),
        E.event("s5", "2025-03-02T00:05:00+03:00", "ana", "quiz.finished", #"{"attempt":"a-1"}"#),
        E.event("b1", "2025-03-04T07:00:00-08:00", "ben", "quiz.started", #"{"attempt":"a-1","quiz":"daily-4","questions":3,"daily":true}"#),
        E.event("b2", "2025-03-04T07:01:00-08:00", "ben", "answer.selected", #"{"attempt":"a-1","question":"q1","choice":2,"correct":true,"skill":"tone"}"#),
        E.event("b3", "2025-03-04T07:02:00-08:00", "ben", "quiz.abandoned", #"{"attempt":"a-1"}"#),
        E.event("m1", "2025-03-04T19:00:00+03:00", "ana", "submission.made", #"{"content":"l-1","kind":"lesson","category":"reading","answers":[{"question":"1","choice":0,"correct":true,"skill":"inference"},{"question":"2","choice":1,"correct":true}]}"#),
    ]

    static func row(_ day: String, _ users: Int, _ started: Int, _ finished: Int, _ completion: String, _ mean: String,
                    _ answers: Int, _ accuracy: String, _ hints: Int, _ solved: Int, _ failed: Int, _ submissions: Int) -> String {
        #"{"day":"\#(day)","active_users":\#(users),"quizzes_started":\#(started),"quizzes_finished":\#(finished),"completion_rate":\#(completion),"mean_score_percent":\#(mean),"answers":\#(answers),"accuracy":\#(accuracy),"hints_used":\#(hints),"puzzles_completed":\#(solved),"puzzles_failed":\#(failed),"submissions":\#(submissions)}"#
    }

    @Test("an attempt started at 23:50 counts on its start day; days without events are zero rows")
    func midnightAndEmptyDays() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.midnightLog, to: dir.path("l.log"))
        let r = try CLI.run(["report", dir.path("l.log"), "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let days = [
            Self.row("2025-03-01", 2, 1, 1, "100", "50", 2, "50", 1, 1, 0, 0),
            Self.row("2025-03-02", 0, 0, 0, "null", "null", 0, "null", 0, 0, 0, 0),
            Self.row("2025-03-03", 0, 0, 0, "null", "null", 0, "null", 0, 0, 0, 0),
            Self.row("2025-03-04", 2, 1, 0, "0", "null", 3, "100", 0, 0, 0, 1),
        ]
        let expected = #"{"from":"2025-03-01","to":"2025-03-04","days":["# + days.joined(separator: ",")
            + #"],"totals":{"active_users":2,"quizzes_started":2,"quizzes_finished":1,"completion_rate":50,"mean_score_percent":50,"answers":5,"accuracy":80,"hints_used":1,"puzzles_completed":1,"puzzles_failed":0,"submissions":1},"#
            + #""skills":[{"skill":"inference","correct":2,"answers":2,"accuracy":100},{"skill":"tone","correct":1,"answers":2,"accuracy":50}],"#
            + #""streaks":{"day":"2025-03-04","distribution":[{"current":0,"users":2}]}}"# + "\n"
        #expect(r.stdout == expected)
    }

    @Test("CSV opens in Python's csv module with the spec's columns in order, one row per day")
    func csvInPython() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.midnightLog, to: dir.path("l.log"))
        let r = try CLI.run(["report", dir.path("l.log"), "--format", "csv", "--out", dir.path("r.csv")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let py = try CLI.python("""
            import csv, json, sys
            with open(sys.argv[1], newline='') as f:
                rows = list(csv.reader(f))
            print(json.dumps({"header": rows[0], "days": [r[0] for r in rows[1:]], "widths": sorted({len(r) for r in rows}),
                              "second": rows[2], "first": rows[1]}))
            """, [dir.path("r.csv")])
        try #require(py.status == 0, "\(py.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as? [String: Any]
        #expect(parsed?["header"] as? [String] == ["day", "active_users", "quizzes_started", "quizzes_finished",
                                                   "completion_rate", "mean_score_percent", "answers", "accuracy",
                                                   "hints_used", "puzzles_completed", "puzzles_failed", "submissions"])
        #expect(parsed?["days"] as? [String] == ["2025-03-01", "2025-03-02", "2025-03-03", "2025-03-04"])
        #expect(parsed?["widths"] as? [Int] == [12])
        #expect(parsed?["first"] as? [String] == ["2025-03-01", "2", "1", "1", "100", "50", "2", "50", "1", "1", "0", "0"])
        #expect(parsed?["second"] as? [String] == ["2025-03-02", "0", "0", "0", "", "", "0", "", "0", "0", "0", "0"])
    }

    @Test("text is an aligned table: every row as wide as the header, a totals row, the skills and streaks")
    func textTable() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.midnightLog, to: dir.path("l.log"))
        let r = try CLI.run(["report", dir.path("l.log"), "--format", "text"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("day ") })
        let total = try #require(lines.firstIndex { $0.hasPrefix("total ") })
        let table = lines[header...total]
        #expect(table.count == 1 + 1 + 4 + 1 + 1)  // header, rule, 4 days, rule, total
        #expect(Set(table.map(\.count)).count == 1, "\(table.joined(separator: "\n"))")
        #expect(lines.contains { $0.hasPrefix("2025-03-02 ") && $0.hasSuffix(" 0") })
        #expect(lines.contains { $0.hasPrefix("inference ") && $0.hasSuffix("100%") })
        #expect(lines.contains { $0.hasPrefix("0 days ") && $0.hasSuffix(" 2") })
    }

    @Test("the streak at --to uses only the days up to --to, and later appends do not change a past report")
    func pastReportIsStable() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("s.log")
        var lines: [String] = []
        for (k, day) in ["2025-05-01", "2025-05-02"].enumerated() {
            lines.append(E.event("c\(k)s", "\(day)T08:00:00+02:00", "cara", "quiz.started", #"{"attempt":"a\#(k)","quiz":"d","questions":1,"daily":true}"#))
            lines.append(E.event("c\(k)f", "\(day)T08:01:00+02:00", "cara", "quiz.finished", #"{"attempt":"a\#(k)"}"#))
        }
        // Started on 05-03 at 23:58, finished after midnight: counts for 05-03.
        lines.append(E.event("c2s", "2025-05-03T23:58:00+02:00", "cara", "quiz.started", #"{"attempt":"a2","quiz":"d","questions":1,"daily":true}"#))
        lines.append(E.event("c2f", "2025-05-04T00:02:00+02:00", "cara", "quiz.finished", #"{"attempt":"a2"}"#))
        try LogFixture.write(lines, to: log)
        let before = try CLI.run(["report", log, "--to", "2025-05-03", "--format", "json"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.contains(#""streaks":{"day":"2025-05-03","distribution":[{"current":3,"users":1}]}"#), "\(before.stdout)")
        let at02 = try CLI.run(["report", log, "--to", "2025-05-02", "--format", "json"])
        #expect(at02.stdout.contains(#""distribution":[{"current":2,"users":1}]"#), "\(at02.stdout)")

        // Later: a reset of quizzes on 05-04 and another day's quiz.
        let writerLines = [
            E.event("r1", "2025-05-04T09:00:00+02:00", "cara", "progress.reset", #"{"scope":"quizzes"}"#),
            E.event("c3s", "2025-05-05T08:00:00+02:00", "cara", "quiz.started", #"{"attempt":"a3","quiz":"d","questions":1,"daily":true}"#),
            E.event("c3f", "2025-05-05T08:01:00+02:00", "cara", "quiz.finished", #"{"attempt":"a3"}"#),
        ]
        try LogFixture.append(writerLines, to: log)
        let after = try CLI.run(["report", log, "--to", "2025-05-03", "--format", "json"])
        #expect(after.stdout == before.stdout)
        let now = try CLI.run(["report", log, "--format", "json"])
        #expect(now.stdout.contains(#""streaks":{"day":"2025-05-05","distribution":[{"current":1,"users":1}]}"#), "\(now.stdout)")
    }

    @Test("several logs are read in order as one sequence: an attempt may finish in the next log")
    func severalLogs() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Array(Self.midnightLog[0..<4]), to: dir.path("a.log"))
        try LogFixture.write(Array(Self.midnightLog[4...]), to: dir.path("b.log"))
        try LogFixture.write(Self.midnightLog, to: dir.path("all.log"))
        let split = try CLI.run(["report", dir.path("a.log"), dir.path("b.log"), "--format", "json"])
        let whole = try CLI.run(["report", dir.path("all.log"), "--format", "json"])
        #expect(split.status == 0, "\(split.stderr)")
        #expect(split.stdout == whole.stdout)
    }

    @Test("a damaged log is refused with verify's message, exit 1, nothing on stdout")
    func damagedLog() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("d.log")
        try LogFixture.write(Self.midnightLog, to: log)
        var text = String(decoding: dir.bytes("d.log"), as: UTF8.self)
        text = text.replacingOccurrences(of: #""seconds":42.5"#, with: #""seconds":42.0"#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: log))
        let r = try CLI.run(["report", log, "--format", "html"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("\(log): line 3: broken_chain"), "\(r.stderr)")
    }

    @Test("usage errors exit 64", arguments: [
        ["--format", "json"],                                        // no log
        ["LOG", "--format", "text", "--json"],                       // two formats
        ["LOG", "--format", "xml"],
        ["LOG", "--format", "json", "--from", "2025-02-30"],
        ["LOG", "--format", "json", "--from", "2025-03-04", "--to", "2025-03-01"],
    ])
    func usage(_ arguments: [String]) throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.midnightLog, to: dir.path("l.log"))
        let r = try CLI.run(["report"] + arguments.map { $0 == "LOG" ? dir.path("l.log") : $0 })
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("progress-ledger report:"))
    }

    @Test("a missing log is a failure naming it")
    func missingLog() throws {
        let r = try CLI.run(["report", "/nonexistent/x.log", "--format", "json"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/nonexistent/x.log"))
    }
}
