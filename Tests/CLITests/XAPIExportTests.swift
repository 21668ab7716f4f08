import Foundation
import Testing

/// `progress-ledger export --format xapi` (docs/xapi.md), checked against
/// statements written by hand, the page's worked UUID example, and a verb
/// table per event written from the mapping.
@Suite("xAPI export")
struct XAPIExportTests {
    static let resources = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Resources/xapi")
    static var smallLog: String { resources.appendingPathComponent("small.log").path }

    @Test("small.log exports to the hand-written statements, byte for byte, twice")
    func smallLogBytes() throws {
        let expected = try Data(contentsOf: Self.resources.appendingPathComponent("small.xapi.jsonl"))
        let first = try CLI.run(["export", Self.smallLog, "--format", "xapi"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutBytes == Array(expected))
        let second = try CLI.run(["export", Self.smallLog, "--format", "xapi"])
        #expect(second.stdoutBytes == first.stdoutBytes)
    }

    /// Every event of small.log and the verb the mapping gives it (nil: no statement).
    static let verbs: [(event: String, type: String, verb: String?)] = [
        ("e-1", "quiz.started", "http://adlnet.gov/expapi/verbs/initialized"),
        ("e-2", "answer.selected correct", "http://adlnet.gov/expapi/verbs/answered"),
        ("e-3", "hint.used", "https://progress-ledger.example/activities/verbs/used-hint"),
        ("e-4", "answer.selected wrong", "http://adlnet.gov/expapi/verbs/answered"),
        ("e-5", "answer.selected duplicate_answer", nil),
        ("e-6", "quiz.finished", "http://adlnet.gov/expapi/verbs/completed"),
        ("e-7", "hints.granted", nil),
        ("e-8", "puzzle.completed", "http://adlnet.gov/expapi/verbs/passed"),
        ("e-9", "puzzle.failed", "http://adlnet.gov/expapi/verbs/failed"),
        ("e-10", "submission.made passage", "http://adlnet.gov/expapi/verbs/completed"),
        ("e-11", "quiz.started", "http://adlnet.gov/expapi/verbs/initialized"),
        ("e-12", "quiz.abandoned", "http://adlnet.gov/expapi/verbs/terminated"),
        ("e-13", "answer.selected unknown_attempt", nil),
        ("e-14", "progress.reset", nil),
    ]

    /// The statements of an export by their `event` extension.
    static func statementsByEvent(_ output: String, base: String = "https://progress-ledger.example/activities/") throws -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for line in output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let context = try #require(object["context"] as? [String: Any])
            let extensions = try #require(context["extensions"] as? [String: Any])
            let event = try #require(extensions[base + "extensions/event"] as? String)
            out[event] = object
        }
        return out
    }

    @Test("every event type has the mapped verb, and the ignored ones none")
    func verbPerEventType() throws {
        let run = try CLI.run(["export", Self.smallLog, "--format", "xapi"])
        let statements = try Self.statementsByEvent(run.stdout)
        #expect(statements.count == Self.verbs.filter { $0.verb != nil }.count)
        for (event, type, verb) in Self.verbs {
            let got = (statements[event]?["verb"] as? [String: Any])?["id"] as? String
            #expect(got == verb, "\(event) (\(type))")
        }
    }

    @Test("a lesson, a reused attempt id on another day and a hint after the end")
    func moreCases() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("l.log")
        let lines = [
            #"{"id":"s1","at":"2025-10-21T09:00:00Z","user":"u","type":"quiz.started","data":{"attempt":"a","quiz":"q/1","questions":3}}"#,
            #"{"id":"s2","at":"2025-10-21T09:00:30.25Z","user":"u","type":"answer.selected","data":{"attempt":"a","question":"x","choice":2,"correct":true,"skill":"sum","item":"bank 12"}}"#,
            #"{"id":"s3","at":"2025-10-21T09:01:00Z","user":"u","type":"quiz.finished","data":{"attempt":"a"}}"#,
            #"{"id":"s4","at":"2025-10-21T09:02:00Z","user":"u","type":"hint.used","data":{"attempt":"a","question":"x","hint":"reveal"}}"#,
            #"{"id":"s5","at":"2025-10-22T09:00:00Z","user":"u","type":"quiz.started","data":{"attempt":"a","quiz":"q/1","questions":3}}"#,
            #"{"id":"s6","at":"2025-10-22T10:00:00Z","user":"u","type":"submission.made","data":{"content":"L 1","kind":"lesson","category":"math","diagnostic":true,"answers":[]}}"#,
        ]
        let append = try CLI.run(["append", log], input: lines.joined(separator: "\n") + "\n")
        #expect(append.status == 0, "\(append.stderr)")
        let run = try CLI.run(["export", log, "--format", "xapi", "--activity-base", "https://b.example/x"])
        #expect(run.status == 0, "\(run.stderr)")
        let s = try Self.statementsByEvent(run.stdout, base: "https://b.example/x/")
        #expect(Set(s.keys) == ["s1", "s2", "s3", "s6"])
        // finished: 1 correct of 3, 60 s after the start
        let result = try #require(s["s3"]?["result"] as? [String: Any])
        let score = try #require(result["score"] as? [String: Any])
        #expect(score["raw"] as? Int == 1 && score["max"] as? Int == 3 && score["min"] as? Int == 0)
        #expect(result["duration"] as? String == "PT60S")
        #expect(run.stdout.contains(#""score":{"scaled":0.3333,"raw":1"#))
        let object = try #require(s["s1"]?["object"] as? [String: Any])
        #expect(object["id"] as? String == "https://b.example/x/quizzes/q%2F1")
        let lesson = try #require(s["s6"])
        #expect((lesson["object"] as? [String: Any])?["id"] as? String == "https://b.example/x/lessons/L%201")
        #expect((lesson["verb"] as? [String: Any])?["id"] as? String == "http://adlnet.gov/expapi/verbs/completed")
        #expect((lesson["result"] as? [String: Any])?["score"] == nil)
        #expect(run.stdout.contains(#""https://b.example/x/extensions/diagnostic":true"#))
        // An answer's `item` (version 2's optional member) after its `skill`, as written.
        #expect(run.stdout.contains(#""https://b.example/x/extensions/skill":"sum","https://b.example/x/extensions/item":"bank 12"}"#))
    }

    @Test("the worked example of docs/xapi.md: demo seq 2's statement id and registration")
    func workedExample() throws {
        let dir = try TemporaryDirectory()
        let demo = try CLI.run(["demo", "--users", "3", "--days", "5", "--seed", "7", "--out", dir.path("d"), "--quiet"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let run = try CLI.run(["export", dir.path("d/demo.log"), "--format", "xapi", "--user", "u-001"])
        let statements = try Self.statementsByEvent(run.stdout)
        let s = try #require(statements["u-001:2"])
        #expect(s["id"] as? String == "07f82e2b-656d-8001-a5d5-ef1c1ac35ddc")
        #expect((s["context"] as? [String: Any])?["registration"] as? String == "1afd228c-8c5b-8e2c-8ccd-2456a3c62754")
        #expect(s["timestamp"] as? String == "2025-10-06T08:43:41.736000+03:00")
    }

    @Test("options: a base that is not an absolute IRI is a usage error; --user selects")
    func options() throws {
        let bad = try CLI.run(["export", Self.smallLog, "--format", "xapi", "--activity-base", "not an iri"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--activity-base"))
        let none = try CLI.run(["export", Self.smallLog, "--format", "xapi", "--user", "u-1"])
        #expect(none.status == 0 && none.stdout.isEmpty)
        let format = try CLI.run(["export", Self.smallLog, "--format", "yaml"])
        #expect(format.status == 64)
    }
}
