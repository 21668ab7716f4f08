import Foundation
import Testing

/// Every refusal the CLI prints names its kind as docs/sync.md and the spec
/// spell it, so that scripts can match on it.
@Suite("Refusals name their kind")
struct RefusalKindTests {
    static let events = [
        #"{"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"quiz.started","data":{"attempt":"a-1","quiz":"quran-basics","questions":5,"daily":true}}"#,
        #"{"id":"e-2","at":"2025-10-21T08:16:10+03:00","user":"u-42","type":"answer.selected","data":{"attempt":"a-1","question":"q1","choice":1,"correct":true,"skill":"inference"}}"#,
    ]

    @Test("pull of a line the source rewrote prints replica_diverged, exits 1 and writes nothing")
    func pullRewrittenLine() throws {
        let dir = try TemporaryDirectory()
        let server = dir.path("server.log")
        #expect(try CLI.run(["append", server], input: Self.events.joined(separator: "\n") + "\n").status == 0)
        let replica = dir.path("replica.log")
        #expect(try CLI.run(["pull", replica], stdin: try CLI.run(["export", server]).stdoutBytes).status == 0)
        let held = dir.bytes("replica.log")
        // The server's line 2 rewritten (another skill), then resent.
        let lines = String(decoding: held, as: UTF8.self).split(separator: "\n").map(String.init)
        let rewritten = lines[0] + "\n" + lines[1].replacingOccurrences(of: "inference", with: "deduction") + "\n"
        let r = try CLI.run(["pull", replica], input: rewritten)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("progress-ledger pull: \(replica): replica_diverged: stdin line 2 (seq 2"), "\(r.stderr)")
        #expect(dir.bytes("replica.log") == held)
    }

    @Test("the CLI's other refusals print their kinds too")
    func otherRefusals() throws {
        let dir = try TemporaryDirectory()
        let server = dir.path("server.log")
        #expect(try CLI.run(["append", server], input: Self.events[0] + "\n").status == 0)
        // A pull cut short: invalid_event.
        let cut = try CLI.run(["pull", dir.path("replica.log")], input: "{\"v\":1")
        #expect(cut.status == 1 && cut.stderr.contains("invalid_event: stdin line 1 has no LF at its end"), "\(cut.stderr)")
        // A missing log: not_found.
        let missing = try CLI.run(["verify", dir.path("none.log")])
        #expect(missing.status == 1 && missing.stderr.contains("none.log: not_found: "), "\(missing.stderr)")
        // A folder where a log should be: is_directory.
        let folder = try CLI.run(["append", dir.url.path, "--event", Self.events[1]])
        #expect(folder.status == 1 && folder.stderr.contains("is_directory: "), "\(folder.stderr)")
        // merge into an existing file: permission.
        let merge = try CLI.run(["merge", server, server])
        #expect(merge.status == 1 && merge.stderr.contains("permission: "), "\(merge.stderr)")
    }
}
