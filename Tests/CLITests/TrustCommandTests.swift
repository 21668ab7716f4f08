import Events
import Foundation
import Ledger
import Simulation
import Testing

/// `erase`, `export --user`, `explain`, `--version` through the tool.
@Suite("erase, export --user, explain")
struct TrustCommandTests {
    typealias E = LogFixture

    /// Writes the demo events of `options` whose user is not in `without` to a new log.
    static func writeDemo(_ options: DemoLog.Options, without: Set<String> = [], to path: String) throws -> [String] {
        let events = Array(DemoLog(options))
        let writer = try LedgerWriter(path: path)
        try writer.append(events.filter { !without.contains($0.user) })
        writer.close()
        var users: [String] = []
        for e in events where !users.contains(e.user) { users.append(e.user) }
        return users
    }

    @Test("after erase, every other learner's state and audit are unchanged and report is the report of the log without the learner",
          arguments: [UInt64(2), 9])
    func eraseThroughTheTool(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("progress.log"), without = dir.path("without.log")
        let options = DemoLog.Options(users: 4, days: 5, seed: seed)
        let users = try Self.writeDemo(options, to: log)
        let victim = users[Int(seed) % users.count]
        _ = try Self.writeDemo(options, without: [victim], to: without)
        let others = users.filter { $0 != victim }
        func views(_ user: String) throws -> [String] {
            try [["state", log, "--user", user, "--json"], ["audit", log, "--user", user, "--json"]].map {
                let r = try CLI.run($0); #expect(r.status == 0, "\(r.stderr)"); return r.stdout
            }
        }
        let before = try others.map(views)
        let original = dir.bytes("progress.log")

        let dry = try CLI.run(["erase", log, "--user", victim, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("dry run (nothing changed): would erase user \(victim) in \(log): "))
        #expect(dir.bytes("progress.log") == original)

        let r = try CLI.run(["erase", log, "--user", victim])
        #expect(r.status == 0, "\(r.stderr)")
        let head = try #require(verify(path: without).isOK ? verify(path: log).head : nil)
        #expect(r.stdout.contains("head before: \(head)") && r.stdout.contains("head after:  \(head)"))
        #expect(try others.map(views) == before)
        // The report of the erased log is the report of the log that never had the learner.
        let a = try CLI.run(["report", log, "--format", "json"]), b = try CLI.run(["report", without, "--format", "json"])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout.replacingOccurrences(of: log, with: "LOG") == b.stdout.replacingOccurrences(of: without, with: "LOG"))
        // verify counts the stubs; export for the learner prints nothing.
        let v = try CLI.run(["verify", log])
        #expect(v.stdout.contains(" redacted (erased; their hashes kept)"), "\(v.stdout)")
        let x = try CLI.run(["export", log, "--user", victim])
        #expect(x.status == 0 && x.stdout.isEmpty)
    }

    @Test("export --user prints exactly the learner's lines, verified, and --state their state")
    func exportUser() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("progress.log")
        let users = try Self.writeDemo(.init(users: 3, days: 3, seed: 4), to: log)
        let user = users[1]
        let mine = String(decoding: dir.bytes("progress.log"), as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("\"user\":\"\(user)\"") }.map { $0 + "\n" }.joined()
        let r = try CLI.run(["export", log, "--user", user])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == mine)
        let s = try CLI.run(["export", log, "--user", user, "--state"])
        let state = try CLI.run(["state", log, "--user", user, "--json"])
        #expect(s.stdout == mine + "{\"state\":" + state.stdout.dropLast() + "}\n")
        // A damaged log prints nothing.
        var bytes = dir.bytes("progress.log")
        bytes[40] = UInt8(ascii: "#")
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        let bad = try CLI.run(["export", log, "--user", user])
        #expect(bad.status == 1 && bad.stdout.isEmpty)
        #expect(bad.stderr.contains(log))
    }

    @Test("--version, erase without --user, and verify's failure names the file")
    func smallThings() throws {
        let v = try CLI.run(["--version"])
        #expect(v.status == 0 && v.stdout.hasPrefix("progress-ledger "))
        let dir = try TemporaryDirectory()
        let log = dir.path("a.log")
        try E.write([E.event("e1", "2025-10-01T08:00:00Z", "u", "hints.granted", #"{"amount":2,"reason":"seed"}"#)], to: log)
        #expect(try CLI.run(["erase", log]).status == 64)
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: dir.path("b.log")))
        let bad = try CLI.run(["verify", dir.path("b.log")])
        #expect(bad.status == 1 && bad.stdout.hasPrefix(dir.path("b.log") + ": line 1: "), "\(bad.stdout)")
    }

    // MARK: explain, against hand-worked logs

    /// u: hints +2; day 10-01 daily a1 (3 questions, a hint on q2) finished; no
    /// 10-02; 10-03 daily a2 finished; 10-04 daily a3 finished, then a retry a4
    /// with one answer. v's event at seq 17 is never u's.
    static let handLog = [
        E.event("e1", "2025-10-01T08:00:00Z", "u", "hints.granted", #"{"amount":2,"reason":"seed"}"#),
        E.event("e2", "2025-10-01T09:00:00Z", "u", "quiz.started", #"{"attempt":"a1","quiz":"d1","questions":3,"daily":true}"#),
        E.event("e3", "2025-10-01T09:01:00Z", "u", "answer.selected", #"{"attempt":"a1","question":"q1","choice":0,"correct":true,"skill":"s"}"#),
        E.event("e4", "2025-10-01T09:02:00Z", "u", "hint.used", #"{"attempt":"a1","question":"q2","hint":"fifty_fifty"}"#),
        E.event("e5", "2025-10-01T09:03:00Z", "u", "answer.selected", #"{"attempt":"a1","question":"q2","choice":1,"correct":false,"skill":"s"}"#),
        E.event("e6", "2025-10-01T09:04:00Z", "u", "answer.selected", #"{"attempt":"a1","question":"q3","choice":2,"correct":false,"skill":"s"}"#),
        E.event("e7", "2025-10-01T09:05:00Z", "u", "quiz.finished", #"{"attempt":"a1"}"#),
        E.event("e8", "2025-10-03T09:00:00Z", "u", "quiz.started", #"{"attempt":"a2","quiz":"d3","questions":2,"daily":true}"#),
        E.event("e9", "2025-10-03T09:01:00Z", "u", "answer.selected", #"{"attempt":"a2","question":"q1","choice":0,"correct":true,"skill":"s"}"#),
        E.event("e10", "2025-10-03T09:02:00Z", "u", "answer.selected", #"{"attempt":"a2","question":"q2","choice":0,"correct":false,"skill":"s"}"#),
        E.event("e11", "2025-10-03T09:03:00Z", "u", "quiz.finished", #"{"attempt":"a2"}"#),
        E.event("e12", "2025-10-04T09:00:00Z", "u", "quiz.started", #"{"attempt":"a3","quiz":"d4","questions":1,"daily":true}"#),
        E.event("e13", "2025-10-04T09:01:00Z", "u", "answer.selected", #"{"attempt":"a3","question":"q1","choice":3,"correct":false,"skill":"s"}"#),
        E.event("e14", "2025-10-04T09:02:00Z", "u", "quiz.finished", #"{"attempt":"a3"}"#),
        E.event("e15", "2025-10-04T10:00:00Z", "u", "quiz.started", #"{"attempt":"a4","quiz":"d4","questions":1,"daily":true}"#),
        E.event("e16", "2025-10-04T10:01:00Z", "u", "answer.selected", #"{"attempt":"a4","question":"q1","choice":1,"correct":true,"skill":"t"}"#),
        E.event("e17", "2025-10-04T10:02:00Z", "v", "hints.granted", #"{"amount":5,"reason":"seed"}"#),
    ]

    /// Worked by hand (D = 2025-10-04, the latest day). Active days 10-01,
    /// 10-03, 10-04: the current run is 10-03..10-04 (2), made active by the
    /// finishes at seq 11 and 14, and is also the longest. The latest daily
    /// attempt of D is a4, in progress; its status changed at 12 (a3 started),
    /// 13 (answered), 14 (finished), 15 (a4 started), 16 (answered). Two daily
    /// attempts on D (12, 15): retries left max(0, 1 - 1) = 0. Hints: 2
    /// granted (1), 1 used (4): 1. First answers 3 T, 5 F, 6 F, 9 T, 10 F,
    /// 13 F, 16 T: round(300/7) = 43. Skill s: weak once it has 3 answers
    /// (after 6: 1/3), then 2/4 (9), 2/5 (10), 2/6 = 33% (13); t has 1 answer.
    static let handWorked: [(path: String, value: String, seqs: [Int])] = [
        ("streak.current", "2", [11, 14]),
        ("streak.longest", "2", [11, 14]),
        ("daily_quiz.status", #""in_progress""#, [12, 13, 14, 15, 16]),
        ("daily_quiz.retries_left", "0", [12, 15]),
        ("hints.balance", "1", [1, 4]),
        ("stats.accuracy", "43", [3, 5, 6, 9, 10, 13, 16]),
        ("study_plan.weaknesses", #"[{"skill":"s","correct":2,"total":6,"percent":33,"category":null}]"#, [6, 9, 10, 13]),
        ("achievements", "[]", []),
    ]

    @Test("explain: value, rule and events of each supported member on a hand-worked log",
          arguments: handWorked.map(\.path))
    func explainHandWorked(path: String) throws {
        let expected = try #require(Self.handWorked.first { $0.path == path })
        let dir = try TemporaryDirectory()
        let log = dir.path("hand.log")
        try E.write(Self.handLog, to: log)
        let r = try CLI.run(["explain", log, "--user", "u", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["path"] as? String == path)
        #expect((object["rule"] as? String)?.isEmpty == false)
        let events = try #require(object["events"] as? [[String: Any]])
        #expect(events.map { $0["seq"] as? Int } == expected.seqs.map { $0 })
        for e in events {
            #expect(e["day"] is String && e["type"] is String && (e["summary"] as? String)?.isEmpty == false)
        }
        // The value, as written, is the hand-worked one and that member of state --json.
        let value = try #require(r.stdout.range(of: #""value":"#).map { r.stdout[$0.upperBound...] })
        #expect(value.hasPrefix(expected.value + #","rule":"#), "\(value.prefix(120))")
        let state = try CLI.run(["state", log, "--user", "u", "--json"])
        var member: Any? = try JSONSerialization.jsonObject(with: Data(state.stdout.utf8))
        for name in path.split(separator: ".") { member = (member as? [String: Any])?[String(name)] }
        let expectedValue = try JSONSerialization.jsonObject(with: Data(expected.value.utf8), options: .fragmentsAllowed)
        let sorted: (Any) throws -> Data = { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .fragmentsAllowed]) }
        let stateMember = try #require(member)
        #expect(try sorted(stateMember) == sorted(expectedValue), "\(stateMember)")
    }

    @Test("explain achievements: streak_7 is dated by the seventh active day, earned at its finish")
    func explainAchievement() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("week.log")
        var lines: [String] = []
        for d in 1...8 {
            let day = "2025-10-0\(d)"
            lines.append(E.event("s\(d)", "\(day)T09:00:00Z", "u", "quiz.started", #"{"attempt":"a\#(d)","quiz":"q\#(d)","questions":1,"daily":true}"#))
            lines.append(E.event("f\(d)", "\(day)T09:05:00Z", "u", "quiz.finished", #"{"attempt":"a\#(d)"}"#))
        }
        try E.write(lines, to: log)
        let r = try CLI.run(["explain", log, "--user", "u", "achievements", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let value = try #require(object["value"] as? [[String: Any]])
        #expect(value.first?["id"] as? String == "streak_7" && value.first?["day"] as? String == "2025-10-07")
        // Day 7's finish is line 14; nothing else earned anything.
        #expect((object["events"] as? [[String: Any]])?.map { $0["seq"] as? Int } == [14])
        // An unknown member is a usage error naming the members.
        let bad = try CLI.run(["explain", log, "--user", "u", "streak.nope"])
        #expect(bad.status == 64 && bad.stderr.contains("streak.current"))
    }
}

@Suite("append names each member's problem")
struct AppendEveryProblemTests {
    @Test("an event with several bad members gets one line per member; a good one none; nothing is appended")
    func everyMember() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("a.log")
        let input = """
            {"id":"x","user":"u","type":"hints.granted","data":{"amount":-1,"reason":"zzz"}}
            {"id":"y","at":"2025-10-01T08:00:00Z","user":"u","type":"submission.made","data":{"content":"c","kind":"lesson","category":"k","answers":[{"question":"q1","choice":-1,"correct":"no"},{"question":"q1","choice":1,"correct":true}]}}
            {"id":"z","at":"2025-10-01T08:00:00Z","user":"u","type":"hints.granted","data":{"amount":2,"reason":"seed"}}

            """
        let r = try CLI.run(["append", log], input: input)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("stdin:") }.map { String($0.prefix { $0 != " " }) + " " + ($0.split(separator: " ")[1]) } == [
            "stdin:1: at:", "stdin:1: data.amount:", "stdin:1: data.reason:",
            "stdin:2: data.answers[0].choice:", "stdin:2: data.answers[0].correct:", "stdin:2: data.answers[1].question:",
        ])
        #expect(lines.last == "progress-ledger append: 2 invalid events (invalid_data, invalid_envelope); nothing was appended to \(log)")
        #expect(dir.bytes("a.log").isEmpty)
    }
}
