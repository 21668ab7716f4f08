import Foundation
@testable import progress_ledger
import Testing

/// Messages that guess what was meant: a mistyped command or option, JSON
/// written over several lines, a file of input events given as a log.
@Suite("messages that say what was meant")
struct MessageHintTests {
    static let events = """
        {"id":"e-1","at":"2025-10-21T08:14:00+03:00","user":"u-42","type":"hints.granted","data":{"amount":3,"reason":"seed"}}
        {"id":"e-2","at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"hints.granted","data":{"amount":1,"reason":"reward"}}

        """

    @Test("a mistyped command: did you mean (sate → state, verfy → verify, exprot → export); exit 64; a word far from any: the command list")
    func command() throws {
        for (typed, meant) in [("sate", "state"), ("verfy", "verify"), ("exprot", "export"), ("apend", "append")] {
            let r = try CLI.run([typed, "x.log"])
            #expect(r.status == 64)
            #expect(r.stderr.hasPrefix("progress-ledger: unknown command '\(typed)'; did you mean '\(meant)'?\n"), "\(r.stderr)")
        }
        let far = try CLI.run(["frobnicate"])
        #expect(far.status == 64 && !far.stderr.contains("did you mean") && far.stderr.contains("Commands:"))
    }

    @Test("a mistyped option: did you mean (--usr → --user, --jsn → --json, --formt → --format); none for one far from any")
    func option() throws {
        for (args, typed, meant) in [(["state", "x.log", "--usr", "u"], "--usr", "--user"), (["state", "x.log", "--jsn"], "--jsn", "--json"),
                                     (["report", "x.log", "--formt", "csv"], "--formt", "--format")] {
            let r = try CLI.run(args)
            #expect(r.status == 64)
            #expect(r.stderr.contains("unknown option '\(typed)' (did you mean '\(meant)'?)"), "\(r.stderr)")
        }
        let far = try CLI.run(["state", "x.log", "--colour"])
        #expect(far.status == 64 && far.stderr.contains("unknown option '--colour'\n"), "\(far.stderr)")
    }

    @Test("the edit distance: insertions, deletions, substitutions, a swap; a tie goes to the first name")
    func distance() {
        #expect(Suggestion.distance("sate", "state") == 1)
        #expect(Suggestion.distance("stat", "state") == 1)
        #expect(Suggestion.distance("stste", "state") == 1)
        #expect(Suggestion.distance("satte", "state") == 1)   // two neighbours swapped
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.closest(to: "x", among: ["y", "z"]) == nil)   // one letter of one is no typo
        #expect(Suggestion.closest(to: "--usr", among: ["--user", "--out", "--json"]) == "--user")
    }

    @Test("a pretty-printed event: not_json lines, then a word that append reads one event a line; nothing appended")
    func prettyPrinted() throws {
        let dir = try TemporaryDirectory()
        let pretty = """
            {
              "id": "e-1",
              "at": "2025-10-21T08:14:00+03:00",
              "user": "u-42",
              "type": "hints.granted",
              "data": {"amount": 3, "reason": "seed"}
            }

            """
        let log = dir.path("l.log")
        let r = try CLI.run(["append", log], input: pretty)
        #expect(r.status == 1)
        #expect(r.stderr.contains("7 invalid events (not_json)"))
        #expect(r.stderr.contains("the input looks like JSON written over several lines; append reads one event a line (JSON Lines)"), "\(r.stderr)")
        let written = FileManager.default.contents(atPath: log) ?? Data()
        #expect(written.isEmpty)
        // One bad line among good ones is not called pretty-printed.
        let one = try CLI.run(["append", log], input: Self.events + "{\"id\": oops}\n")
        #expect(one.status == 1 && !one.stderr.contains("several lines"), "\(one.stderr)")
    }

    @Test("appending to, or verifying, a file of input events: it is named an input file, not a log, and left as it was")
    func inputFileGivenAsLog() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("events.jsonl")
        try Data(Self.events.utf8).write(to: URL(fileURLWithPath: input))
        let appended = try CLI.run(["append", input], input: Self.events)
        #expect(appended.status == 1)
        #expect(appended.stderr.contains("\(input) looks like a file of input events (lines without v, seq and prev), not a log: "
                                         + "append them to a log with 'progress-ledger append LOG < \(input)'"), "\(appended.stderr)")
        #expect(try String(contentsOfFile: input, encoding: .utf8) == Self.events)
        let verified = try CLI.run(["verify", input])
        #expect(verified.status == 1)
        #expect(verified.stderr.contains("looks like a file of input events"), "\(verified.stderr)")
        let state = try CLI.run(["state", input, "--user", "u-42"])
        #expect(state.status == 1)
        #expect(state.stderr.contains("progress-ledger state: \(input) looks like a file of input events"), "\(state.stderr)")
        // A damaged log (a real log line, then garbage) gets no such word.
        let log = dir.path("real.log")
        #expect(try CLI.run(["append", log], input: Self.events).status == 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not json\n".utf8))
        try handle.close()
        let damaged = try CLI.run(["verify", log])
        #expect(damaged.status == 1 && !damaged.stderr.contains("input events"), "\(damaged.stderr)")
    }
}
