import Foundation
import Testing

/// What a new user tripped on, each through the tool: options accepted and
/// ignored, an erasure that "succeeds" for nobody, an explanation without a
/// warning, a whole rejected value echoed back, durations in raw seconds, a
/// dashboard without today's quiz, a repeated column, `join`'s new order.
@Suite("As a new user would: no option ignored, no erasure for nobody, nothing misleading")
struct NewUserTests {
    typealias E = LogFixture

    /// u-42: a daily quiz on 10-20 resumed 8 hours later (8h 20m 13s start to
    /// finish), 1 h 10 min of answers, and today's (10-21) quiz in progress at
    /// 2 of 5; u-7: one grant.
    static let lines = [
        E.event("e-1", "2025-10-20T07:00:00Z", "u-42", "hints.granted", #"{"amount":3,"reason":"seed"}"#),
        E.event("e-2", "2025-10-20T08:00:00Z", "u-42", "quiz.started", #"{"attempt":"a-1","quiz":"daily-1","questions":2,"daily":true}"#),
        E.event("e-3", "2025-10-20T08:01:00Z", "u-42", "answer.selected", #"{"attempt":"a-1","question":"q1","choice":1,"correct":true,"ms":3600000}"#),
        E.event("e-4", "2025-10-20T16:20:00Z", "u-42", "answer.selected", #"{"attempt":"a-1","question":"q2","choice":0,"correct":false,"ms":600000}"#),
        E.event("e-5", "2025-10-20T16:20:13Z", "u-42", "quiz.finished", #"{"attempt":"a-1"}"#),
        E.event("e-6", "2025-10-20T09:00:00Z", "u-7", "hints.granted", #"{"amount":1,"reason":"seed"}"#),
        E.event("e-7", "2025-10-21T08:00:00Z", "u-42", "quiz.started", #"{"attempt":"a-2","quiz":"daily-2","questions":5,"daily":true}"#),
        E.event("e-8", "2025-10-21T08:01:00Z", "u-42", "answer.selected", #"{"attempt":"a-2","question":"q1","choice":2,"correct":true}"#),
        E.event("e-9", "2025-10-21T08:02:00Z", "u-42", "answer.selected", #"{"attempt":"a-2","question":"q2","choice":3,"correct":true}"#),
    ]

    static func log(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("learners.log")
        try E.write(lines, to: path)
        return path
    }

    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    // MARK: export: --user and --out for every format

    @Test("export --user U limits every format to U's events")
    func exportUserEveryFormat() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let jsonl = try CLI.run(["export", log, "--user", "u-7"])
        #expect(jsonl.status == 0 && Self.jsonLines(jsonl.stdout).map { $0["id"] as? String } == ["e-6"], "\(jsonl.stderr)")
        let flat = try CLI.run(["export", log, "--format", "flat", "--user", "u-42", "--out", dir.path("flat")])
        #expect(flat.status == 0, "\(flat.stderr)")
        let parts = try FileManager.default.subpathsOfDirectory(atPath: dir.path("flat")).filter { $0.hasSuffix(".jsonl") }
        let rows = try parts.flatMap { Self.jsonLines(try String(contentsOfFile: dir.path("flat/" + $0), encoding: .utf8)) }
        #expect(rows.count == 8 && rows.allSatisfy { $0["user"] as? String == "u-42" }, "\(rows.count) rows")
        let xapi = try CLI.run(["export", log, "--format", "xapi", "--user", "u-7"])
        let everyone = try CLI.run(["export", log, "--format", "xapi"])
        #expect(xapi.status == 0 && Self.jsonLines(xapi.stdout).isEmpty, "a grant maps to no statement: \(xapi.stdout)")
        let mine = Self.jsonLines(try CLI.run(["export", log, "--format", "xapi", "--user", "u-42"]).stdout)
        #expect(!mine.isEmpty && mine.count == Self.jsonLines(everyone.stdout).count)
        #expect(mine.allSatisfy { (($0["actor"] as? [String: Any])?["account"] as? [String: Any])?["name"] as? String == "u-42" })
        // A learner without events is a note, not silence.
        let nobody = try CLI.run(["export", log, "--format", "xapi", "--user", "nobody"])
        #expect(nobody.status == 0 && nobody.stderr.contains("no events for user \"nobody\""), "\(nobody.stderr)")
    }

    @Test("export --out FILE writes jsonl and xapi to the file, whole, and nothing on stdout", arguments: ["jsonl", "xapi"])
    func exportOutEveryFormat(_ format: String) throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        for extra in [[], ["--user", "u-42"]] {
            let shown = try CLI.run(["export", log, "--format", format] + extra)
            let file = dir.path("\(format)-\(extra.count).out")
            let written = try CLI.run(["export", log, "--format", format, "--out", file] + extra)
            #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
            #expect(!shown.stdoutBytes.isEmpty && dir.bytes("\(format)-\(extra.count).out") == shown.stdoutBytes)
        }
        // A damaged log writes no file at all.
        var bytes = dir.bytes("learners.log")
        bytes[bytes.count - 3] = UInt8(ascii: "x")
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path("bad.log")))
        let bad = try CLI.run(["export", dir.path("bad.log"), "--format", format, "--out", dir.path("bad.out")])
        #expect(bad.status == 1 && !FileManager.default.fileExists(atPath: dir.path("bad.out")), "\(bad.stderr)")
    }

    /// Options that only some forms of a command use, given with another: refused, exit 64, naming why.
    static let ignoredOptions: [(arguments: [String], message: String)] = [
        (["export", "LOG", "--format", "xapi", "--after", "3"], "--after is for --format jsonl only (the format here is xapi)"),
        (["export", "LOG", "--homepage", "https://x.example/"], "--homepage is for --format xapi only (the format here is jsonl)"),
        (["export", "LOG", "--format", "flat", "--out", "F", "--state", "--user", "u-42"], "--state is for --format jsonl only (the format here is flat)"),
        (["export", "LOG", "--format", "flat", "--out", "F", "--activity-base", "https://x.example/"], "--activity-base is for --format xapi only"),
        (["import", "LOG", "--from", "cryptogram", "x.csv", "--user", "u", "--kind", "lesson"], "--kind is for --from sat-attempts only (here --from is cryptogram)"),
        (["import", "LOG", "--from", "sat-attempts", "x.json", "--user", "u", "--at", "2025-10-01T00:00:00Z"], "--at is for --from quiz-app only"),
        (["import", "LOG", "--from", "quiz-app", "x.json", "--user", "u", "--utc-offset", "+03:00"], "--utc-offset is for --from daily-quiz|cryptogram|sat-attempts only"),
    ]

    @Test("an option a form does not use is refused (exit 64) naming it and why, and nothing is written",
          arguments: ignoredOptions.indices)
    func ignoredOptionRefused(_ k: Int) throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let before = dir.bytes("learners.log")
        let (arguments, message) = Self.ignoredOptions[k]
        let r = try CLI.run(arguments.map { $0 == "LOG" ? log : $0 == "F" ? dir.path("F") : $0 })
        #expect(r.status == 64, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stdout.isEmpty && !FileManager.default.fileExists(atPath: dir.path("F")))
        #expect(dir.bytes("learners.log") == before)
    }

    // MARK: erase and explain of a learner without events

    @Test("erase of a learner without events exits 1, changes nothing, and names the id that differs only in case")
    func eraseNobody() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        let bytes = dir.bytes("learners.log")
        for extra in [[], ["--dry-run"]] {
            let ghost = try CLI.run(["erase", log, "--user", "ghost"] + extra)
            #expect(ghost.status == 1 && ghost.stdout.isEmpty, "\(ghost.stdout)")
            #expect(ghost.stderr.contains("not_found: no line of user \"ghost\": nothing was erased"), "\(ghost.stderr)")
            let upper = try CLI.run(["erase", log, "--user", "U-42"] + extra)
            #expect(upper.status == 1 && upper.stderr.contains("ids that differ only in case or spaces: \"u-42\""), "\(upper.stderr)")
        }
        #expect(dir.bytes("learners.log") == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == before)
        // The real learner is erased; a second erasure finds nothing left and says so.
        #expect(try CLI.run(["erase", log, "--user", "u-7"]).status == 0)
        #expect(try CLI.run(["erase", log, "--user", "u-7"]).status == 1)
    }

    @Test("explain of a learner without events warns as state does, and prints the empty state's value")
    func explainNobody() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let r = try CLI.run(["explain", log, "--user", "nobody", "hints.balance"])
        let state = try CLI.run(["state", log, "--user", "nobody"])
        #expect(r.status == 0 && r.stdout.hasPrefix("hints.balance = 0\n"), "\(r.stdout)")
        #expect(r.stderr == state.stderr.replacingOccurrences(of: "progress-ledger state:", with: "progress-ledger explain:"))
        #expect(r.stderr.contains("no events for user \"nobody\""))
        // In a ledger directory, a learner without a learner log is the same note, not an error.
        #expect(try CLI.run(["split", log, dir.path("ledger.d")]).status == 0)
        let inDir = try CLI.run(["explain", dir.path("ledger.d"), "--user", "nobody", "hints.balance"])
        #expect(inDir.status == 0 && inDir.stderr.contains("no events for user \"nobody\""), "\(inDir.stderr)")
    }

    // MARK: the small things

    @Test("a rejected 60 KB value is quoted cut, with its length, not echoed whole")
    func longValueNotEchoed() throws {
        let dir = try TemporaryDirectory()
        let long = String(repeating: "x", count: 60_000)
        let event = E.event("e-1", "2025-10-20T07:00:00Z", "u", "hint.used", #"{"attempt":"a","question":"q","hint":"\#(long)"}"#)
        let r = try CLI.run(["append", dir.path("x.log")], input: event + "\n")
        #expect(r.status == 1 && r.stderr.utf8.count < 1_000, "\(r.stderr.utf8.count) bytes of stderr")
        #expect(r.stderr.contains("xxxx…, 60000 characters"))
        let day = try CLI.run(["state", dir.path("x.log"), "--user", "u", "--day", long])
        #expect(day.status == 64 && day.stderr.utf8.count < 1_000 && day.stderr.contains("60000 characters"))
    }

    @Test("durations read as the dashboard says them; the dashboard shows today's quiz and the fastest from start to finish")
    func durationsAndDashboard() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let text = try CLI.run(["state", log, "--user", "u-42"])
        #expect(text.stdout.contains("1h 10m spent"), "\(text.stdout)")
        #expect(text.stdout.contains("Daily quiz: Continue (3/5)"))
        let html = try CLI.run(["state", log, "--user", "u-42", "--format", "html"]).stdout
        #expect(html.contains("Continue (3/5)"), "today's daily quiz is on the page")
        #expect(html.contains("fastest, start to finish") && html.contains("<td>8h 20m</td>"))
        #expect(html.contains("1h 10m") && !html.contains("30013"))
    }

    @Test("the leaderboard by finished quizzes has one finished column")
    func leaderboardHeader() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let board = try CLI.run(["leaderboard", log, "--period", "week", "--on", "2025-10-20"])
        let header = try #require(board.stdout.split(separator: "\n").first { $0.hasPrefix("rank") })
        #expect(header.split(separator: " ").map(String.init) == ["rank", "user", "finished"], "\(header)")
    }

    @Test("join says that it orders by time, and an event recorded late moves back to its time")
    func joinSaysItReorders() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        #expect(try CLI.run(["split", log, dir.path("ledger.d")]).status == 0)
        let r = try CLI.run(["join", dir.path("ledger.d"), dir.path("all.log")])
        #expect(r.status == 0 && r.stderr.contains("is ordered by time, then id: not the order the learner logs recorded"), "\(r.stderr)")
        // e-6 (u-7, 09:00) was recorded after u-42's 16:20 events; joined, it comes before them.
        let ids = Self.jsonLines(String(decoding: dir.bytes("all.log"), as: UTF8.self)).map { $0["id"] as? String ?? "" }
        #expect(ids == ["e-1", "e-2", "e-3", "e-6", "e-4", "e-5", "e-7", "e-8", "e-9"])
        #expect(try CLI.run(["join", "--help"]).stdout.contains("OUT's order is by time"))
    }
}
