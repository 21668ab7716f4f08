import Events
import Foundation
import Ledger
import Projections
import Testing

/// `report` of several logs folds on a thread of its own, in batches of
/// records handed over from the reader's ordered thread; of one log, on the
/// ordered thread, over views of the lines' captures. The JSON must be what
/// folding the same records in order, in this process, gives: several
/// chunks and batches, a partial last one, several logs, and a range.
@Suite("report: the fold on its own thread gives the in-order fold's JSON")
struct ReportFoldThreadTests {
    /// The report of `logs` folded here, record by record, in order.
    static func foldedHere(_ logs: [String], from: Day? = nil, to: Day? = nil) throws -> (json: String, records: Int) {
        var builder = ReportBuilder(from: from, to: to)
        var count = 0
        var ids = Set<String>()   // the spec: an event read from an earlier log (by id) counts once, where first read
        for log in logs {
            _ = try LogReader(path: log).read { record in
                guard ids.insert(record.id).inserted else { return }
                builder.add(record)
                count += 1
            }
        }
        return (String(decoding: builder.report().json, as: UTF8.self) + "\n", count)
    }

    @Test("demo logs of several thousand lines, alone and together, with and without a range")
    func sameAsInOrderFold() throws {
        let dir = try TemporaryDirectory()
        let a = try LogFixture.demo(in: dir, users: 24, days: 20, seed: 11, name: "a")
        let b = try LogFixture.demo(in: dir, users: 6, days: 10, seed: 12, name: "b")
        let cases: [([String], String?, String?)] = [
            ([a], nil, nil), ([a, b], nil, nil), ([b, a], nil, nil),
            ([a, b], "2025-10-08", "2025-10-11"), ([a], nil, "2025-10-09"),
        ]
        for (logs, from, to) in cases {
            var args = ["report"] + logs + ["--format", "json", "--quiet"]
            if let from { args += ["--from", from] }
            if let to { args += ["--to", to] }
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(r.stderr)")
            let here = try Self.foldedHere(logs, from: from.flatMap(Day.init), to: to.flatMap(Day.init))
            #expect(here.records > 3 * 1024, "\(here.records) records: fewer than several batches")
            #expect(r.stdout == here.json, "\(args)")
        }
    }

    /// A demo log's lines laid out otherwise than the writer does on some
    /// lines (escapes, a space, members reordered, ids past the fold event's
    /// 64 bytes of inline text), chained again: the report's reader then
    /// takes its second stage's captures on some lines and the record on
    /// others, and the report must be the in-order fold's of the records.
    @Test("a log mixing the writer's lines and others: the same report as the in-order fold")
    func mixedLines() throws {
        let dir = try TemporaryDirectory()
        let demo = try LogFixture.demo(in: dir, users: 12, days: 12, seed: 5, name: "mixed")
        let lines = try String(contentsOfFile: demo, encoding: .utf8).split(separator: "\n").map(String.init)
        var bodies: [String] = []
        for (k, line) in lines.enumerated() {
            var body = line.replacingOccurrences(of: #"^\{"v":[0-9]+,"seq":[0-9]+,"#, with: "{", options: .regularExpression)
                .replacingOccurrences(of: #","prev":"[0-9a-f]{64}"\}$"#, with: "}", options: .regularExpression)
            // One learner's ids long enough to leave the inline text, on all their lines.
            if body.contains(#""user":"u-003""#) {
                body = body.replacingOccurrences(of: #""user":"u-003""#, with: #""user":"u-003-"# + String(repeating: "ü", count: 40) + #"""#)
                    .replacingOccurrences(of: #""attempt":"a-"#, with: #""attempt":"a-"# + String(repeating: "x", count: 30))
            }
            switch k % 7 {
            case 1: body = body.replacingOccurrences(of: #""attempt":"a-"#, with: #""attempt":"\u0061-"#)
            case 2: body = body.replacingOccurrences(of: #""question":"q"#, with: #""question":"\u0071"#)
            case 3: body = body.replacingOccurrences(of: #""data":{"#, with: #""data": {"#)
            case 4: body = body.replacingOccurrences(of: #""user":"u-"#, with: #""user":"\u0075-"#)
            case 5: body = body.replacingOccurrences(of: #","skill":"[a-z_]*""#, with: #","skill":"sk\u0069ll""#, options: .regularExpression)
            default: break
            }
            bodies.append(body)
        }
        #expect(bodies.contains { $0.contains(#""user":"u-003-ü"#) }, "the long user is in the log")
        let log = dir.path("mixed.log")
        try NumberBoundsTests.chained(bodies).write(toFile: log, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["verify", log]).status == 0)
        for range in [[], ["--from", "2025-10-03", "--to", "2025-10-08"]] {
            let r = try CLI.run(["report", log, "--format", "json", "--quiet"] + range)
            #expect(r.status == 0, "\(r.stderr)")
            let here = try Self.foldedHere([log], from: range.isEmpty ? nil : Day("2025-10-03"), to: range.isEmpty ? nil : Day("2025-10-08"))
            #expect(r.stdout == here.json, "\(range)")
        }
    }

    /// Ids the spec holds different though `String ==` holds them equal
    /// ("é" as one scalar and as "e" + U+0301) must stay two ids, users and
    /// skills alike, in a log read in many chunks by the workers (past 1
    /// MiB), with the fold on the ordered thread: the in-order fold's report.
    @Test("users and skills that differ only by normalization, in the same chunks: the in-order fold's report")
    func idsEqualOnlyAsStrings() throws {
        let dir = try TemporaryDirectory()
        let demo = try LogFixture.demo(in: dir, users: 30, days: 20, seed: 13, name: "forms")
        let lines = try String(contentsOfFile: demo, encoding: .utf8).split(separator: "\n").map(String.init)
        var bodies: [String] = []
        for (k, line) in lines.enumerated() {
            var body = line.replacingOccurrences(of: #"^\{"v":[0-9]+,"seq":[0-9]+,"#, with: "{", options: .regularExpression)
                .replacingOccurrences(of: #","prev":"[0-9a-f]{64}"\}$"#, with: "}", options: .regularExpression)
            // u-0NM: an odd number is "é" as one scalar, the even one after it "e" + U+0301: two users each.
            if let r = body.range(of: #""user":"u-0([0-9])([0-9])""#, options: .regularExpression) {
                let digits = body[r].dropFirst(11).dropLast()
                let n = Int(digits) ?? 0
                let e = n % 2 == 1 ? "\u{E9}" : "e\u{301}"
                body.replaceSubrange(r, with: #""user":"\#(e)-\#((n + 1) / 2)""#)
            }
            // Every skill written in one form on even lines and the other on odd ones.
            body = body.replacingOccurrences(of: #""skill":""#, with: #""skill":""# + (k % 2 == 0 ? "\u{E9}" : "e\u{301}"))
            bodies.append(body)
        }
        let log = dir.path("forms.log")
        try NumberBoundsTests.chained(bodies).write(toFile: log, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["verify", log]).status == 0)
        let size = try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? 0
        #expect(size > 1 << 20, "\(size) bytes: read by the workers in chunks (not line by line) only past 1 MiB")
        for range in [[], ["--from", "2025-10-04", "--to", "2025-10-12"]] {
            let r = try CLI.run(["report", log, "--format", "json", "--quiet"] + range)
            #expect(r.status == 0, "\(r.stderr)")
            let here = try Self.foldedHere([log], from: range.isEmpty ? nil : Day("2025-10-04"), to: range.isEmpty ? nil : Day("2025-10-12"))
            #expect(r.stdout == here.json, "\(range)")
            // Both forms of a skill are rows of their own.
            #expect(r.stdout.contains("\u{E9}") && r.stdout.contains("e\u{301}"))
        }
    }
}
