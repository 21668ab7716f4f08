import Foundation
import Testing

@Suite("audit: one learner's timeline with its marks and the log's verification")
struct AuditTests {
    typealias E = LogFixture

    /// ana and zed interleaved. ana: a hint granted, a daily quiz whose second
    /// answer is recorded after the third, a hint at balance 0, a reset, and a
    /// puzzle of 06-01 recorded after her events of 06-02.
    static let log = [
        E.event("e1", "2025-06-01T07:00:00+02:00", "ana", "hints.granted", #"{"amount":1,"reason":"seed"}"#),
        E.event("e2", "2025-06-01T07:10:00-05:00", "zed", "quiz.started", #"{"attempt":"a-1","quiz":"zed-only-quiz","questions":1}"#),
        E.event("e3", "2025-06-01T08:15:00+02:00", "ana", "quiz.started", #"{"attempt":"a-1","quiz":"daily-0601","questions":3,"daily":true,"title":"Quran Basics"}"#),
        E.event("e4", "2025-06-01T08:15:30+02:00", "ana", "hint.used", #"{"attempt":"a-1","question":"q1","hint":"fifty_fifty"}"#),
        E.event("e5", "2025-06-01T08:16:00+02:00", "ana", "answer.selected", #"{"attempt":"a-1","question":"q1","choice":1,"correct":true,"skill":"inference"}"#),
        E.event("e6", "2025-06-01T08:18:00+02:00", "ana", "answer.selected", #"{"attempt":"a-1","question":"q3","choice":2,"correct":true}"#),
        E.event("e7", "2025-06-01T08:17:00+02:00", "ana", "answer.selected", #"{"attempt":"a-1","question":"q2","choice":0,"correct":false}"#),
        E.event("e8", "2025-06-01T08:18:30+02:00", "ana", "hint.used", #"{"attempt":"a-1","question":"q3","hint":"reveal"}"#),
        E.event("e9", "2025-06-01T07:20:00-05:00", "zed", "answer.selected", #"{"attempt":"a-1","question":"q1","choice":0,"correct":true}"#),
        E.event("e10", "2025-06-01T08:19:00+02:00", "ana", "quiz.finished", #"{"attempt":"a-1"}"#),
        E.event("e11", "2025-06-02T09:00:00+02:00", "ana", "progress.reset", #"{"scope":"quizzes"}"#),
        E.event("e12", "2025-06-02T09:05:00+02:00", "ana", "quiz.started", #"{"attempt":"a-2","quiz":"daily-0602","questions":2,"daily":true}"#),
        E.event("e13", "2025-06-01T21:00:00+02:00", "ana", "puzzle.completed", #"{"puzzle":"c-9","encoding":"atbash","seconds":61}"#),
    ]

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test("--json: every line parses; the late answer and the overdraw are marked; zed never appears")
    func json() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.log, to: dir.path("a.log"))
        let r = try CLI.run(["audit", dir.path("a.log"), "--user", "ana", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try jsonLines(r.stdout)
        let events = lines.filter { $0["kind"] as? String == "event" }
        #expect(events.map { $0["id"] as? String } == ["e1", "e3", "e4", "e5", "e6", "e7", "e8", "e10", "e11", "e12", "e13"])
        #expect(!r.stdout.contains("zed"))
        let bySeq = Dictionary(uniqueKeysWithValues: events.map { ($0["seq"] as? Int ?? -1, $0) })
        #expect((bySeq[7]?["late"] as? [String: Any])?["after_seq"] as? Int == 6)
        #expect((bySeq[7]?["late"] as? [String: Any])?["seconds"] as? Int == 60)
        #expect(bySeq[6]?["late"] is NSNull)
        let kinds = { (seq: Int) in (bySeq[seq]?["anomalies"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } }
        #expect(kinds(8) == ["hint_overdraw"])
        #expect(kinds(4) == [])
        #expect(bySeq[11]?["reset"] as? String == "quizzes")
        #expect(bySeq[13]?["day"] as? String == "2025-06-01")
        #expect((bySeq[13]?["late"] as? [String: Any])?["after_seq"] as? Int == 12)
        #expect(bySeq[5]?["text"] as? String == "q1 → choice 1 ✓ inference · after a hint")
        #expect(bySeq[3]?["text"] as? String == #"daily quiz "Quran Basics" started · attempt a-1 · 3 questions"#)
        let footer = try #require(lines.last)
        #expect(footer["kind"] as? String == "verify")
        #expect(footer["ok"] as? Bool == true)
        #expect(footer["events"] as? Int == 13)
        #expect((footer["head"] as? String)?.hasPrefix("13:") == true)
        #expect(footer["shown"] as? Int == 11)
    }

    @Test("text: lines grouped under learner days in log order, marks on their lines, a footer with the head")
    func text() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.log, to: dir.path("a.log"))
        let r = try CLI.run(["audit", dir.path("a.log"), "--user", "ana"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        func line(_ seq: Int) -> String { lines.first { $0.hasSuffix("· seq \(seq)") || $0.contains("· seq \(seq)  ") } ?? "" }
        #expect(line(1) == "07:00 +02:00  1 hint granted (seed) · balance 0 → 1  · seq 1")
        #expect(line(3) == #"08:15  daily quiz "Quran Basics" started · attempt a-1 · 3 questions  · seq 3"#)
        #expect(line(7).hasPrefix("08:17  q2 → choice 0 ✗"))
        #expect(line(7).hasSuffix("⏱ late"))
        #expect(line(8).hasSuffix("⚠ hint_overdraw"))
        #expect(!line(6).contains("⏱"))
        #expect(line(11).contains("progress reset: quizzes"))
        #expect(!r.stdout.contains("zed"))
        let headings = lines.filter { $0.hasPrefix("2025-") && !$0.contains("· seq") }
        #expect(headings == ["2025-06-01 Sunday", "2025-06-02 Monday", "2025-06-01 Sunday (continued)"])
        #expect(lines.contains { $0.hasPrefix("── verify: ok, 13 events, head 13:") })
    }

    @Test("--from/--to keep the learner days asked for")
    func range() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.log, to: dir.path("a.log"))
        let r = try CLI.run(["audit", dir.path("a.log"), "--user", "ana", "--from", "2025-06-02", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let ids = try jsonLines(r.stdout).compactMap { $0["id"] as? String }
        #expect(ids == ["e11", "e12"])
    }

    @Test("a damaged log: the lines before the damage, then the problem, exit 1")
    func damaged() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("a.log")
        try LogFixture.write(Self.log, to: path)
        var text = String(decoding: dir.bytes("a.log"), as: UTF8.self)
        text = text.replacingOccurrences(of: #""question":"q3","hint":"reveal""#, with: #""question":"q4","hint":"reveal""#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["audit", path, "--user", "ana"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("· seq 8"))
        #expect(!r.stdout.contains("· seq 10"))
        #expect(r.stdout.contains("── verify: FAILED, line 9: broken_chain"), "\(r.stdout)")
        #expect(r.stderr.contains("line 9: broken_chain"))
    }

    @Test("a user with no line: an empty timeline, the footer, a note on stderr")
    func unknownUser() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.log, to: dir.path("a.log"))
        let r = try CLI.run(["audit", dir.path("a.log"), "--user", "Ana"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("── 0 lines of Ana"))
        #expect(r.stderr.contains("no line of user 'Ana'"))
    }

    @Test("usage errors exit 64", arguments: [[String](), ["LOG"], ["LOG", "--user", "ana", "--to", "06-01"]])
    func usage(_ arguments: [String]) throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.log, to: dir.path("a.log"))
        let r = try CLI.run(["audit"] + arguments.map { $0 == "LOG" ? dir.path("a.log") : $0 })
        #expect(r.status == 64, "\(r.stderr)")
    }
}
