import Foundation
import Ledger
import Testing

@Suite("demo: the README's first command")
struct DemoTests {
    @Test("`demo` with the defaults writes a log that verifies and a report page, and says where")
    func defaults() throws {
        let dir = try TemporaryDirectory()
        let r = try CLI.run(["demo", "--quiet"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        let log = dir.path("demo/demo.log")
        let report = try Ledger.verify(path: log)
        #expect(report.isOK, "\(report.problem?.description ?? "")")
        #expect(report.events > 3_000)
        #expect(r.stdout.contains("appended \(report.events) events to demo/demo.log"))
        #expect(r.stdout.contains("demo/demo.log: ok: \(report.events) events, head \(report.head)"))
        // What `verify` itself says about the log.
        let verified = try CLI.run(["verify", "demo/demo.log"], in: dir.url)
        #expect(verified.status == 0)
        #expect(verified.stdout == "demo/demo.log: ok: \(report.events) events, head \(report.head)\n")
        #expect(r.stdout.contains("$ progress-ledger state demo/demo.log --user u-001"))
        #expect(r.stdout.contains("Daily quiz:"))
        // The last evening's sessions run past midnight in London (a category quiz at 00:35 on 11-05).
        #expect(r.stdout.contains("2025-10-05 to 2025-11-05: 32 days, 30 active users"))
        #expect(r.stdout.contains("Wrote demo/demo.log and demo/report.html"))
        let html = String(decoding: dir.bytes("demo/report.html"), as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains(#"<svg id="chart-active-users""#))
    }

    @Test("the same seed gives the same bytes; another seed another log")
    func deterministic() throws {
        let dir = try TemporaryDirectory()
        let a = try LogFixture.demo(in: dir, users: 8, days: 6, seed: 5, name: "a")
        let b = try LogFixture.demo(in: dir, users: 8, days: 6, seed: 5, name: "b")
        let c = try LogFixture.demo(in: dir, users: 8, days: 6, seed: 6, name: "c")
        let bytesA = try Data(contentsOf: URL(fileURLWithPath: a))
        #expect(bytesA.count > 50_000)
        #expect(bytesA == (try Data(contentsOf: URL(fileURLWithPath: b))))
        #expect(bytesA != (try Data(contentsOf: URL(fileURLWithPath: c))))
        #expect(dir.bytes("a/report.html") == dir.bytes("b/report.html"))
    }

    @Test("a second demo goes to a new folder; an --out holding a demo.log is refused and left alone")
    func neverAppendsTwice() throws {
        let dir = try TemporaryDirectory()
        let first = try CLI.run(["demo", "--users", "3", "--days", "2", "--quiet"], in: dir.url)
        #expect(first.status == 0, "\(first.stderr)")
        let before = dir.bytes("demo/demo.log")
        let second = try CLI.run(["demo", "--users", "3", "--days", "2", "--quiet"], in: dir.url)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("demo-2/demo.log"))
        #expect(dir.bytes("demo-2/demo.log") == before)
        let refused = try CLI.run(["demo", "--users", "4", "--out", dir.path("demo")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("demo.log already exists"))
        #expect(dir.bytes("demo/demo.log") == before)
    }

    @Test("the followed learner's audit shows a late-recorded answer and a hint overdraw")
    func showcaseAudit() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 3, days: 6)
        let r = try CLI.run(["audit", log, "--user", "u-001", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try r.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(lines.contains { $0["type"] as? String == "answer.selected" && !($0["late"] is NSNull) })
        #expect(lines.contains { ($0["anomalies"] as? [[String: Any]])?.contains { $0["kind"] as? String == "hint_overdraw" } == true })
        #expect(lines.allSatisfy { $0["kind"] as? String == "verify" || ($0["id"] as? String)?.hasPrefix("u-001:") == true })
    }

    @Test("usage errors exit 64", arguments: [["--users", "0"], ["--days", "x"], ["--seed", "-1"], ["extra"]])
    func usage(_ arguments: [String]) throws {
        let dir = try TemporaryDirectory()
        let r = try CLI.run(["demo"] + arguments, in: dir.url)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("demo")))
    }
}
