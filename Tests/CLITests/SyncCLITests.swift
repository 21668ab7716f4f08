import Foundation
import Testing

/// The sync commands through the CLI: the walk-through of docs/sync.md, and
/// every refusal exits 1 naming the file, the line and the id or seq, leaving every file as it was.
@Suite("Sync commands")
struct SyncCLITests {
    static let events = [
        #"{"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"quiz.started","data":{"attempt":"a-1","quiz":"quran-basics","questions":5,"daily":true}}"#,
        #"{"id":"e-2","at":"2025-10-21T08:16:10+03:00","user":"u-42","type":"answer.selected","data":{"attempt":"a-1","question":"q1","choice":1,"correct":true,"skill":"inference"}}"#,
        #"{"id":"e-3","at":"2025-10-21T08:16:40+03:00","user":"u-42","type":"hint.used","data":{"attempt":"a-1","question":"q2","hint":"fifty_fifty"}}"#,
    ]

    /// A log of `lines` appended by the CLI.
    static func log(_ dir: TemporaryDirectory, _ name: String, _ lines: [String]) throws -> String {
        let path = dir.path(name)
        let r = try CLI.run(["append", path], input: lines.joined(separator: "\n") + "\n")
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    /// Every file in the directory, with its bytes.
    static func snapshot(_ dir: TemporaryDirectory) throws -> [String: [UInt8]] {
        var all: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.url.path) { all[name] = dir.bytes(name) }
        return all
    }

    @Test func walkThrough() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.log(dir, "server.log", [Self.events[0]])
        let outbox = try Self.log(dir, "outbox.log", [Self.events[0], Self.events[1], Self.events[2]])
        let replica = dir.path("replica.log")
        // Pull everything: a new replica, 0600, the server's bytes.
        let exported = try CLI.run(["export", server, "--after", "0"])
        #expect(exported.stdoutBytes == dir.bytes("server.log"))
        let pulled = try CLI.run(["pull", replica], stdin: exported.stdoutBytes)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(dir.bytes("replica.log") == dir.bytes("server.log"))
        #expect((try FileManager.default.attributesOfItem(atPath: replica)[.posixPermissions] as? Int) == 0o600)
        // Pending: e-2 and e-3 without v, seq, prev.
        let pending = try CLI.run(["pending", outbox, "--replica", replica])
        #expect(pending.stdout == Self.events[1] + "\n" + Self.events[2] + "\n", "\(pending.stdout)")
        // Offline state = replica + pending; after push and pull, the same from the server.
        let offline = try CLI.run(["state", replica, "--outbox", outbox, "--user", "u-42", "--json"])
        #expect(try CLI.run(["append", server], stdin: pending.stdoutBytes).status == 0)
        #expect(try CLI.run(["append", server], stdin: pending.stdoutBytes).status == 0, "a push sent twice appends nothing")
        let more = try CLI.run(["export", server, "--after", "1"])
        #expect(more.stdoutBytes.count > 0 && more.stdout.hasPrefix(#"{"v":1,"seq":2,"#))
        #expect(try CLI.run(["pull", replica], stdin: more.stdoutBytes).status == 0)
        #expect(try CLI.run(["pull", replica], stdin: more.stdoutBytes).stdout.contains("appended 0, already held 2"))
        #expect(dir.bytes("replica.log") == dir.bytes("server.log"))
        let online = try CLI.run(["state", server, "--user", "u-42", "--json"])
        #expect(offline.stdout == online.stdout)
        #expect(try CLI.run(["pending", outbox, "--replica", replica]).stdout.isEmpty)
    }

    @Test("a log with an erased learner (redaction stubs) still merges, lists pending events and gives offline state")
    func afterErase() throws {
        let dir = try TemporaryDirectory()
        let other = [
            #"{"id":"o-1","at":"2025-10-21T09:00:00+03:00","user":"u-7","type":"quiz.started","data":{"attempt":"b-1","quiz":"quran-basics","questions":5,"daily":true}}"#,
            #"{"id":"o-2","at":"2025-10-21T09:01:00+03:00","user":"u-7","type":"answer.selected","data":{"attempt":"b-1","question":"q1","choice":2,"correct":false}}"#,
        ]
        let server = try Self.log(dir, "server.log", [Self.events[0], other[0], Self.events[1], other[1]])
        let erased = try CLI.run(["erase", server, "--user", "u-7"])
        #expect(erased.status == 0, "\(erased.stderr)")
        #expect(String(decoding: dir.bytes("server.log"), as: UTF8.self).components(separatedBy: "\"redacted\"").count == 3, "two stubs")
        // merge: the other learner's events, re-chained; nothing of the erased one.
        let merged = dir.path("merged.log")
        let m = try CLI.run(["merge", server, merged])
        #expect(m.status == 0, "\(m.stderr)")
        let mergedText = String(decoding: dir.bytes("merged.log"), as: UTF8.self)
        #expect(!mergedText.contains("u-7") && !mergedText.contains("redacted"))
        #expect(mergedText.split(separator: "\n").map { $0.contains(#""id":"e-1""#) || $0.contains(#""id":"e-2""#) } == [true, true])
        // pending, both ways: the stubs are no events (no id to send or to hold).
        let outbox = try Self.log(dir, "outbox.log", Self.events)
        let toSend = try CLI.run(["pending", outbox, "--replica", server])
        #expect(toSend.stdout == Self.events[2] + "\n", "\(toSend.stderr)")
        let fromServer = try CLI.run(["pending", server, "--replica", dir.path("none.log")])
        #expect(fromServer.stdout == Self.events[0] + "\n" + Self.events[1] + "\n", "\(fromServer.stderr)")
        // Offline state over the erased replica equals the state once the outbox is pushed.
        let offline = try CLI.run(["state", server, "--outbox", outbox, "--user", "u-42", "--json"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try CLI.run(["append", server], stdin: toSend.stdoutBytes).status == 0)
        #expect(offline.stdout == (try CLI.run(["state", server, "--user", "u-42", "--json"])).stdout)
    }

    @Test func appendConflictingDuplicate() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.log(dir, "server.log", Self.events)
        let before = try Self.snapshot(dir)
        let changed = Self.events[1].replacingOccurrences(of: "\"choice\":1", with: "\"choice\":2")
        let r = try CLI.run(["append", server], input: Self.events[2] + "\n" + changed + "\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains("stdin:2:") && r.stderr.contains("server.log") && r.stderr.contains("conflicting_duplicate")
                    && r.stderr.contains("\"e-2\"") && r.stderr.contains("seq 2"), "\(r.stderr)")
        #expect(try Self.snapshot(dir) == before)
        // The same content, members reordered: not appended again, exit 0, its seq.
        let reordered = #"{"user":"u-42","id":"e-2","type":"answer.selected","at":"2025-10-21T08:16:10+03:00","data":{"skill":"inference","correct":true,"choice":1,"question":"q1","attempt":"a-1"}}"#
        let same = try CLI.run(["append", server], input: reordered + "\n")
        #expect(same.status == 0 && same.stdout == "2 e-2\n")
        #expect(try Self.snapshot(dir) == before)
    }

    @Test func pullRefusals() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.log(dir, "server.log", Self.events)
        let replica = dir.path("replica.log")
        #expect(try CLI.run(["pull", replica], stdin: dir.bytes("server.log")).status == 0)
        let before = try Self.snapshot(dir)
        // A rewritten line 2, resent.
        let lines = dir.bytes("server.log").split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        var rewritten = String(decoding: lines[1], as: UTF8.self).replacingOccurrences(of: "inference", with: "deduction")
        var r = try CLI.run(["pull", replica], input: String(decoding: lines[0], as: UTF8.self) + "\n" + rewritten + "\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains("replica.log") && r.stderr.contains("stdin line 2") && r.stderr.contains("replica's line 2")
                    && r.stderr.contains("seq 2") && r.stderr.contains("\"e-2\""), "\(r.stderr)")
        #expect(try Self.snapshot(dir) == before)
        // A line that does not continue the chain (a seq gap): both line numbers.
        _ = server
        rewritten = #"{"v":1,"seq":5,"id":"e-5","at":"2025-10-21T08:16:10+03:00","user":"u-42","type":"hints.granted","data":{"amount":1,"reason":"seed"},"prev":""# + String(repeating: "0", count: 64) + #""}"#
        r = try CLI.run(["pull", replica], input: rewritten + "\n")
        #expect(r.status == 1 && r.stderr.contains("stdin line 1") && r.stderr.contains("after its line 3") && r.stderr.contains("seq 5"), "\(r.stderr)")
        #expect(try Self.snapshot(dir) == before)
        // A new replica is not created by a refused pull.
        r = try CLI.run(["pull", dir.path("new.log")], stdin: Array(lines[1]) + [0x0A])
        #expect(r.status == 1 && r.stderr.contains("new.log") && r.stderr.contains("stdin line 1") && r.stderr.contains("after its line 0"),
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("new.log")))
        // An input cut short (no LF at its end).
        r = try CLI.run(["pull", replica], stdin: Array(lines[0]))
        #expect(r.status == 1 && r.stderr.contains("stdin line 1") && r.stderr.contains("no LF"), "\(r.stderr)")
        #expect(try Self.snapshot(dir) == before)
    }

    @Test func mergeRefusals() throws {
        let dir = try TemporaryDirectory()
        let a = try Self.log(dir, "a.log", [Self.events[0], Self.events[1]])
        let changed = Self.events[1].replacingOccurrences(of: "\"choice\":1", with: "\"choice\":3")
        let b = try Self.log(dir, "b.log", [changed])
        let before = try Self.snapshot(dir)
        var r = try CLI.run(["merge", a, b, dir.path("out.log")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("a.log:2 and ") && r.stderr.contains("b.log:1") && r.stderr.contains("\"e-2\""), "\(r.stderr)")
        #expect(try Self.snapshot(dir) == before)
        // A damaged input names its file and line.
        var damaged = dir.bytes("a.log")
        damaged[damaged.count - 5] = UInt8(ascii: "x")
        try Data(damaged).write(to: URL(fileURLWithPath: dir.path("bad.log")))
        let withBad = try Self.snapshot(dir)
        r = try CLI.run(["merge", dir.path("bad.log"), dir.path("out.log")])
        #expect(r.status == 1 && r.stderr.contains("bad.log") && r.stderr.contains("line 2"), "\(r.stderr)")
        #expect(try Self.snapshot(dir) == withBad)
        // OUT must not exist.
        r = try CLI.run(["merge", dir.path("b.log"), a])
        #expect(r.status == 1 && r.stderr.contains("a.log") && r.stderr.contains("already exists"), "\(r.stderr)")
        #expect(r.stderr.contains("merge names the new log last: merge LOG... OUT"), "\(r.stderr)")
        #expect(try Self.snapshot(dir) == withBad)
        #expect(try CLI.run(["merge", a, a, dir.path("ok.log")]).status == 0)
        #expect(dir.bytes("ok.log") == dir.bytes("a.log"), "a log in merge order merges to itself")
    }

    @Test func pendingAndExportRefusals() throws {
        let dir = try TemporaryDirectory()
        let replica = try Self.log(dir, "replica.log", [Self.events[0]])
        let outbox = try Self.log(dir, "outbox.log", [Self.events[0].replacingOccurrences(of: "\"questions\":5", with: "\"questions\":6")])
        let before = try Self.snapshot(dir)
        var r = try CLI.run(["pending", outbox, "--replica", replica])
        #expect(r.status == 1 && r.stderr.contains("outbox.log") && r.stderr.contains("line 1") && r.stderr.contains("replica.log")
                    && r.stderr.contains("\"e-1\"") && r.stderr.contains("conflicting_duplicate"), "\(r.stderr)")
        var damaged = dir.bytes("replica.log")
        damaged[damaged.count - 5] = UInt8(ascii: "x")
        try Data(damaged).write(to: URL(fileURLWithPath: dir.path("bad.log")))
        r = try CLI.run(["export", dir.path("bad.log"), "--after", "0"])
        #expect(r.status == 1 && r.stdout.isEmpty && r.stderr.contains("bad.log") && r.stderr.contains("line 1"), "\(r.stderr)")
        #expect(try Self.snapshot(dir).filter { $0.key != "bad.log" } == before)
    }

    @Test func reportCountsAnEventOnce() throws {
        let dir = try TemporaryDirectory()
        let a = try Self.log(dir, "a.log", Self.events)
        let b = try Self.log(dir, "b.log", [Self.events[1], Self.events[2]])
        let one = try CLI.run(["report", a, "--format", "json"])
        #expect(try CLI.run(["report", a, a, "--format", "json"]).stdout == one.stdout)
        #expect(try CLI.run(["report", a, b, "--format", "json"]).stdout == one.stdout)
        let changed = Self.events[1].replacingOccurrences(of: "\"correct\":true", with: "\"correct\":false")
        let c = try Self.log(dir, "c.log", [changed])
        let r = try CLI.run(["report", a, c, "--format", "json"])
        #expect(r.status == 0 && r.stdout == one.stdout)
        #expect(r.stderr.contains("c.log:1") && r.stderr.contains("a.log:2") && r.stderr.contains("\"e-2\""), "\(r.stderr)")
    }

    @Test func demoDevicesSyncThroughTheLibrary() throws {
        let dir = try TemporaryDirectory()
        let r = try CLI.run(["demo", "--users", "3", "--days", "12", "--seed", "5", "--out", "a", "--quiet"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("every replica equals a/sync/server.log"), "\(r.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("a/sync")).sorted()
        let replicas = names.filter { $0.hasSuffix(".replica") }
        #expect(replicas.count >= 2, "\(names)")
        for name in replicas { #expect(dir.bytes("a/sync/" + name) == dir.bytes("a/sync/server.log")) }
        #expect(try CLI.run(["verify", dir.path("a/sync/server.log")]).status == 0)
        // Each device's offline state (replica + outbox) is the server's.
        let device = try #require(replicas.first).replacingOccurrences(of: ".replica", with: "")
        let user = try #require(device.split(separator: "-", maxSplits: 1).last.map(String.init))
        let offline = try CLI.run(["state", dir.path("a/sync/\(device).replica"), "--outbox", dir.path("a/sync/\(device).outbox"), "--user", user, "--json"])
        let online = try CLI.run(["state", dir.path("a/sync/server.log"), "--user", user, "--json"])
        #expect(offline.status == 0 && offline.stdout == online.stdout)
        // The same seed, the same bytes.
        #expect(try CLI.run(["demo", "--users", "3", "--days", "12", "--seed", "5", "--out", "b", "--quiet"], in: dir.url).status == 0)
        #expect(dir.bytes("a/sync/server.log") == dir.bytes("b/sync/server.log"))
        #expect(dir.bytes("a/demo.log") == dir.bytes("b/demo.log"))
    }
}
