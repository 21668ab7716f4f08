import Foundation
import Testing

/// Ledger directories (issue 13): `split`, `report DIR`, `join`, `verify DIR`,
/// `append DIR`, checked through the CLI against the source log and against
/// models written here (JSON parsed by Foundation, SHA-256 by `sha256sum`).
@Suite("ledger directory")
struct LedgerDirectoryTests {
    /// One parsed line: what the checks need.
    struct Line: Equatable {
        var id: String
        var user: String
        var at: String
        var seq: Int
    }

    static func lines(_ path: String) throws -> [Line] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { raw in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
            return Line(id: try #require(object["id"] as? String), user: try #require(object["user"] as? String),
                        at: try #require(object["at"] as? String), seq: try #require(object["seq"] as? Int))
        }
    }

    /// The lowercase hex SHA-256 of `text`'s UTF-8 bytes, by coreutils' sha256sum.
    static func sha256(_ text: String) throws -> String {
        let r = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum"], stdin: Array(text.utf8))
        return String(r.stdout.prefix(64))
    }

    /// Every learner log under `dir/learners`, by relative path.
    static func learnerFiles(_ dir: String) throws -> [String] {
        let root = dir + "/learners"
        return try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".log") }.sorted().map { root + "/" + $0 }
    }

    static func split(users: Int, days: Int, seed: Int) throws -> (TemporaryDirectory, String, String) {
        let tmp = try TemporaryDirectory()
        let log = try LogFixture.demo(in: tmp, users: users, days: days, seed: seed)
        let dir = tmp.path("ledger.d")
        let r = try CLI.run(["split", log, dir])
        try #require(r.status == 0, "split: \(r.stderr)")
        return (tmp, log, dir)
    }

    @Test("split, then report DIR: the same JSON bytes as report of the source",
          arguments: [(30, 30, 42), (12, 20, 7), (5, 45, 1234)])
    func splitReport(users: Int, days: Int, seed: Int) throws {
        let (tmp, log, dir) = try Self.split(users: users, days: days, seed: seed)
        _ = tmp
        let source = try CLI.run(["report", log, "--format", "json"])
        let split = try CLI.run(["report", dir, "--format", "json"])
        #expect(source.status == 0 && split.status == 0, "\(split.stderr)")
        #expect(!source.stdoutBytes.isEmpty)
        #expect(split.stdoutBytes == source.stdoutBytes)
        // A range too (the streak at --to, days outside it).
        let ranged = ["--from", "2025-10-10", "--to", "2025-10-20", "--format", "csv"]
        #expect(try CLI.run(["report", dir] + ranged).stdoutBytes == CLI.run(["report", log] + ranged).stdoutBytes)
    }

    @Test("split: every line of the source is in exactly one learner log, its learner's, in source order")
    func everyLineOnce() throws {
        let (tmp, log, dir) = try Self.split(users: 9, days: 12, seed: 5)
        _ = tmp
        let source = try Self.lines(log)
        var bySource: [String: [String]] = [:]   // user -> ids in source order
        for line in source { bySource[line.user, default: []].append(line.id) }
        var seen: [String: Int] = [:]
        let files = try Self.learnerFiles(dir)
        #expect(files.count == bySource.count)
        for file in files {
            let lines = try Self.lines(file)
            let user = try #require(lines.first?.user)
            let h64 = try Self.sha256(user)
            #expect(file.hasSuffix("/learners/\(h64.prefix(2))/\(h64).log"), "\(file) for \(user)")
            #expect(lines.allSatisfy { $0.user == user })
            #expect(lines.map(\.id) == bySource[user])
            #expect(lines.map(\.seq) == Array(1...lines.count))
            for line in lines { seen[line.id, default: 0] += 1 }
        }
        #expect(seen.count == source.count && seen.values.allSatisfy { $0 == 1 })
        let manifest = try String(contentsOfFile: dir + "/ledger.json", encoding: .utf8)
        let head = try #require(CLI.run(["verify", log]).stdout.split(separator: " ").last).trimmingCharacters(in: .newlines)
        #expect(manifest.contains("\"source_head\":\"\(head)\""))
    }

    @Test("split, then join: the source's events by instant, then id")
    func splitJoin() throws {
        let (tmp, log, dir) = try Self.split(users: 8, days: 10, seed: 3)
        let out = tmp.path("joined.log")
        let r = try CLI.run(["join", dir, out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.run(["verify", out]).status == 0)
        // The model: instants parsed by Foundation (the demo writes milliseconds).
        let fractional = ISO8601DateFormatter(), whole = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        whole.formatOptions = [.withInternetDateTime]
        let source = try Self.lines(log)
        let keyed = try source.map { line in
            (try #require(fractional.date(from: line.at) ?? whole.date(from: line.at), "\(line.at)"), line)
        }
        let expected = keyed.sorted { a, b in
            a.0 != b.0 ? a.0 < b.0 : Array(a.1.id.utf8).lexicographicallyPrecedes(Array(b.1.id.utf8))
        }.map(\.1.id)
        #expect(try Self.lines(out).map(\.id) == expected)
        #expect(expected != source.map(\.id), "the demo's log is not already in merge order, so the test can fail")
    }

    @Test("verify DIR: a tampered learner log is reported with its path and line")
    func tamper() throws {
        let (tmp, _, dir) = try Self.split(users: 6, days: 8, seed: 11)
        _ = tmp
        let ok = try CLI.run(["verify", dir])
        #expect(ok.status == 0 && ok.stdout.contains("ok: 6 learners"), "\(ok.stdout)\(ok.stderr)")
        let file = try #require(Self.learnerFiles(dir).dropFirst(2).first)
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Line 4: another device name (a valid line whose hash no longer matches line 5's prev).
        let before = lines[3]
        lines[3] = lines[3].replacingOccurrences(of: "\"at\":\"2", with: "\"at\":\"1")
        #expect(lines[3] != before)
        try lines.joined(separator: "\n").write(toFile: file, atomically: false, encoding: .utf8)
        let r = try CLI.run(["verify", dir])
        #expect(r.status == 1)
        #expect(r.stdout.contains("\(file): line 5: broken_chain"), "\(r.stdout)")
        #expect(r.stdout.contains("1 of 6 learner logs damaged"))
        // Another learner's state is still read.
        let firstFile = try #require(Self.learnerFiles(dir).first)
        let other = try #require(Self.lines(firstFile).first?.user)
        #expect(try CLI.run(["state", dir, "--user", other]).status == 0)
    }

    @Test("verify DIR --expect-digest: a learner file replaced by a valid shorter log is caught")
    func expectDigest() throws {
        let (tmp, _, dir) = try Self.split(users: 5, days: 8, seed: 21)
        _ = tmp
        let ok = try CLI.run(["verify", dir])
        let digest = String(try #require(ok.stdout.components(separatedBy: "digest ").last).prefix(64))
        #expect(try CLI.run(["verify", dir, "--expect-digest", digest]).status == 0)
        let file = try #require(Self.learnerFiles(dir).last)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let kept = text.split(separator: "\n").dropLast(3).joined(separator: "\n") + "\n"
        try kept.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["verify", dir]).status == 0, "a shorter learner log is still a valid log")
        let r = try CLI.run(["verify", dir, "--expect-digest", digest])
        #expect(r.status == 1)
        #expect(r.stdout.contains("digest_mismatch"), "\(r.stdout)")
    }

    @Test("append DIR: atomic per learner, says who committed; re-sending appends what is missing")
    func appendRouting() throws {
        let tmp = try TemporaryDirectory()
        let dir = tmp.path("ledger.d")
        let seed = LogFixture.event("g-1", "2025-10-01T08:00:00+03:00", "u-a", "hints.granted", #"{"amount":1,"reason":"seed"}"#)
        let seedB = LogFixture.event("g-2", "2025-10-01T08:00:00+03:00", "u-b", "hints.granted", #"{"amount":1,"reason":"seed"}"#)
        let log = tmp.path("seed.log")
        try LogFixture.write([seed, seedB], to: log)
        #expect(try CLI.run(["split", log, dir]).status == 0)
        let batch = [
            LogFixture.event("a-1", "2025-10-02T08:00:00+03:00", "u-a", "hints.granted", #"{"amount":2,"reason":"grant"}"#),
            LogFixture.event("b-1", "2025-10-02T08:00:00+03:00", "u-b", "hints.granted", #"{"amount":2,"reason":"grant"}"#),
            LogFixture.event("a-2", "2025-10-02T09:00:00+03:00", "u-a", "hints.granted", #"{"amount":3,"reason":"grant"}"#),
        ].joined(separator: "\n") + "\n"
        let bLog = dir + "/learners/" + String(try Self.sha256("u-b").prefix(2)) + "/" + (try Self.sha256("u-b")) + ".log"
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: bLog)
        let first = try CLI.run(["append", dir], input: batch)
        #expect(first.status == 1)
        #expect(first.stdout == "2 a-1\n3 a-2\n", "\(first.stdout)")
        #expect(first.stderr.contains("committed: u-a: 2 events"))
        #expect(first.stderr.contains("not committed: u-b:"), "\(first.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: bLog)
        let again = try CLI.run(["append", dir], input: batch)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "2 a-1\n3 a-2\n2 b-1\n")
        #expect(try Self.lines(bLog).map(\.id) == ["g-2", "b-1"])
        #expect(try CLI.run(["verify", dir]).stdout.contains("ok: 2 learners, 5 events"))
    }
}
