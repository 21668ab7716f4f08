import Foundation
import Testing

/// An app not yet updated, as `PROGRESS_LEDGER_READ_VERSION=1` makes the CLI
/// read: on a demo log holding version-2 lines (freeze grants, pauses) it
/// verifies, pulls into a replica and merges, keeping each version-2 line byte
/// for byte (merge re-seals only its `seq` and `prev`), reports each as
/// `newer_version`, and gives the same state and report as the version-2
/// reader for everything that is not a streak.
@Suite("a version-1 reader on a log with version-2 lines")
struct VersionOneReaderTests {
    static let versionOne = ["PROGRESS_LEDGER_READ_VERSION": "1"]

    func json(_ r: CLIResult) throws -> [String: Any] {
        try #require(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("verify, state, report, pull and merge on a demo log")
    func demo() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 12, days: 24, seed: 9)
        let all = lines(dir.bytes("demo/demo.log"))
        let newer = all.enumerated().filter { $0.element.hasPrefix(#"{"v":2,"#) }.map { $0.offset + 1 }
        try #require(all.contains { $0.contains(#""type":"streak.freeze_granted""#) } && all.contains { $0.contains(#""type":"streak.paused""#) })

        // verify: every line checked as far as the reader knows it, the same head.
        let v2 = try CLI.run(["verify", log])
        let v1 = try CLI.run(["verify", log], environment: Self.versionOne)
        #expect(v2.status == 0 && v1.status == 0, "\(v1.stderr)")
        #expect(v1.stdout.contains("\(all.count) events (\(newer.count) of a newer format version, kept unread)"), "\(v1.stdout)")
        #expect(v1.stdout.split(separator: " ").last == v2.stdout.split(separator: " ").last)

        // state: every member but the streak's (and streak_7) equal; the anomalies gain each v2 line of the user as newer_version.
        let users = Set(all.compactMap { line in line.range(of: #""user":"u-0\d\d""#, options: .regularExpression).map { String(line[$0].dropFirst(8).dropLast()) } })
        try #require(users.count == 12)
        var reported = 0
        for user in users.sorted() {
            let full = try json(CLI.run(["state", log, "--user", user, "--json"]))
            let day = try #require(full["day"] as? String)
            let old = try json(CLI.run(["state", log, "--user", user, "--day", day, "--json"], environment: Self.versionOne))
            // review: the demo's answers carry `item` (version 2's optional member), which a
            // version-1 reader keeps unread, so its items are the questions (ReviewItemTests shows
            // that state equals the state of the log without `item`).
            for key in full.keys where !["streak", "achievements", "anomalies", "review"].contains(key) {
                #expect((full[key] as? NSObject) == (old[key] as? NSObject), "\(user) \(key)")
            }
            func kept(_ a: Any?) -> [NSDictionary] { (a as? [NSDictionary]) ?? [] }
            #expect(kept(full["achievements"]).filter { $0["id"] as? String != "streak_7" }
                    == kept(old["achievements"]).filter { $0["id"] as? String != "streak_7" }, "\(user)")
            let ownNewer = newer.filter { all[$0 - 1].contains(#""user":"\#(user)""#) }
            let pairs = kept(full["anomalies"]).filter { $0["kind"] as? String != "freeze_overflow" }
                .map { (($0["seq"] as? Int) ?? 0, ($0["kind"] as? String) ?? "") } + ownNewer.map { ($0, "newer_version") }
            let expected = pairs.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
                .map { "\($0.element.0) \($0.element.1)" }
            #expect(kept(old["anomalies"]).map { "\($0["seq"] ?? "") \($0["kind"] ?? "")" } == expected, "\(user)")
            reported += ownNewer.count
        }
        #expect(reported == newer.count)

        // report: the same days, totals and skills over the same range; only the streaks may differ.
        let report = try json(CLI.run(["report", log, "--format", "json", "--quiet"]))
        let from = try #require(report["from"] as? String), to = try #require(report["to"] as? String)
        let oldReport = try json(CLI.run(["report", log, "--format", "json", "--from", from, "--to", to, "--quiet"], environment: Self.versionOne))
        for key in ["from", "to", "days", "totals", "skills"] {
            #expect((report[key] as? NSObject) == (oldReport[key] as? NSObject), "\(key)")
        }

        // pull: the replica is the log, byte for byte, version-2 lines included (in two pulls).
        let half = all.count / 2
        let first = try CLI.run(["export", log, "--after", "0"])
        let firstHalf = lines(first.stdoutBytes).prefix(half).joined(separator: "\n") + "\n"
        #expect(try CLI.run(["pull", dir.path("replica")], input: firstHalf, environment: Self.versionOne).status == 0)
        let rest = try CLI.run(["export", log, "--after", "\(half)"])
        let pulled = try CLI.run(["pull", dir.path("replica")], stdin: rest.stdoutBytes, environment: Self.versionOne)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(dir.bytes("replica") == dir.bytes("demo/demo.log"))

        // merge: the log with its replica, by either reader, gives the same bytes; the v2 lines keep theirs but seq and prev.
        let m1 = try CLI.run(["merge", log, dir.path("replica"), dir.path("merged-v1")], environment: Self.versionOne)
        let m2 = try CLI.run(["merge", log, dir.path("replica"), dir.path("merged-v2")])
        #expect(m1.status == 0 && m2.status == 0, "\(m1.stderr) \(m2.stderr)")
        #expect(dir.bytes("merged-v1") == dir.bytes("merged-v2"))
        #expect(try CLI.run(["verify", dir.path("merged-v1")]).status == 0)
        func content(_ line: String) -> String {
            // The line without its seq and prev.
            guard let seq = line.range(of: #","seq":"#), let comma = line[seq.upperBound...].firstIndex(of: ","),
                  let prev = line.range(of: #","prev":""#, options: .backwards) else { return line }
            return String(line[..<seq.lowerBound] + line[comma..<prev.lowerBound])
        }
        let mergedNewer = lines(dir.bytes("merged-v1")).filter { $0.hasPrefix(#"{"v":2,"#) }
        #expect(Set(mergedNewer.map(content)) == Set(newer.map { content(all[$0 - 1]) }))
        #expect(mergedNewer.count == newer.count)
    }
}
