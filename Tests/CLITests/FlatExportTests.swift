import Foundation
import Testing

/// `export --format flat` (docs/analytics.md): rows checked against values
/// worked out by hand from the spec, and a directory's export against the
/// source log's.
@Suite("flat export")
struct FlatExportTests {
    /// The rows of an export, each a JSON object, in folder then part then line order.
    static func rows(_ out: String) throws -> [(folder: String, row: [String: Any])] {
        var rows: [(String, [String: Any])] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: out).sorted() {
            for part in try FileManager.default.contentsOfDirectory(atPath: out + "/" + folder).sorted() {
                let text = try String(contentsOfFile: out + "/" + folder + "/" + part, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    rows.append((folder, try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])))
                }
            }
        }
        return rows
    }

    @Test("hand-worked rows: days, counted, score and seconds of an attempt across midnight, a duplicate start, an unknown attempt")
    func handWorked() throws {
        let tmp = try TemporaryDirectory()
        let log = tmp.path("l.log")
        let e = LogFixture.event
        try LogFixture.write([
            e("s1", "2025-10-01T23:50:00+02:00", "u", "quiz.started", #"{"attempt":"a","quiz":"q","questions":2,"daily":true}"#),
            e("x1", "2025-10-02T00:01:00+02:00", "u", "answer.selected", #"{"attempt":"a","question":"1","choice":0,"correct":true,"item":"bank/q\u00e9-7"}"#),
            e("x2", "2025-10-02T00:02:00+02:00", "u", "answer.selected", #"{"attempt":"a","question":"1","choice":1,"correct":false}"#),
            e("f1", "2025-10-02T00:03:30.5+02:00", "u", "quiz.finished", #"{"attempt":"a"}"#),
            e("s2", "2025-10-03T09:00:00Z", "u", "quiz.started", #"{"attempt":"a","quiz":"other","questions":9}"#),
            e("z1", "2025-10-03T09:01:00Z", "u", "answer.selected", #"{"attempt":"zz","question":"1","choice":0,"correct":true}"#),
            e("g1", "2025-10-03T23:30:00-04:00", "u", "streak.freeze_granted", #"{"amount":2,"reason":"purchase"}"#),
            e("p1", "2025-10-04T00:30:00+09:00", "u", "streak.paused", #"{"from":"2025-10-04","to":"2025-10-10"}"#),
        ], to: log)
        let out = tmp.path("flat")
        let r = try CLI.run(["export", log, "--format", "flat", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try Self.rows(out)
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.row["id"] as? String ?? "", $0) })
        func day(_ id: String) -> String? { byID[id]?.row["day"] as? String }
        func counted(_ id: String) -> Bool? { byID[id]?.row["counted"] as? Bool }
        #expect(rows.allSatisfy { $0.row.count == 38 && $0.folder == "day=" + (($0.row["day"] as? String) ?? "") })
        // The attempt's events are on its start day, after midnight too.
        #expect(["s1", "x1", "x2", "f1"].allSatisfy { day($0) == "2025-10-01" })
        #expect(byID["x1"]?.row["at_day"] as? String == "2025-10-02")
        #expect(counted("x1") == true && counted("x2") == false)
        // Version 2's `item`, as written (the escape decoded); null on an answer without one and on other types.
        #expect(byID["x1"]?.row["item"] as? String == "bank/q\u{e9}-7" && byID["x2"]?.row["item"] is NSNull && byID["s1"]?.row["item"] is NSNull)
        // One right first answer of 2 questions; 3 min 30.5 s from start to finish.
        #expect(byID["f1"]?.row["score"] as? Int == 1)
        #expect((byID["f1"]?.row["seconds"] as? NSNumber)?.doubleValue == 810.5)
        #expect(byID["f1"]?.row["utc"] as? String == "2025-10-01T22:03:30.5Z")
        // The duplicate start: its own day and quiz, not counted; the unknown attempt's answer: own day, no quiz.
        #expect(day("s2") == "2025-10-03" && counted("s2") == false && byID["s2"]?.row["quiz"] as? String == "other")
        #expect(day("z1") == "2025-10-03" && counted("z1") == false && byID["z1"]?.row["quiz"] is NSNull)
        // Version 2: a freeze grant's amount and reason, a pause's days; each on its own day, counted, no attempt.
        let grant = try #require(byID["g1"]?.row), pause = try #require(byID["p1"]?.row)
        #expect(grant["type"] as? String == "streak.freeze_granted" && grant["amount"] as? Int == 2 && grant["reason"] as? String == "purchase")
        #expect(day("g1") == "2025-10-03" && counted("g1") == true && grant["paused_from"] is NSNull && grant["attempt"] is NSNull)
        #expect(pause["paused_from"] as? String == "2025-10-04" && pause["paused_to"] as? String == "2025-10-10")
        #expect(day("p1") == "2025-10-04" && pause["amount"] is NSNull && pause["utc"] as? String == "2025-10-03T15:30:00Z")
        let names = (try String(contentsOfFile: out + "/day=2025-10-04/part-00000.jsonl", encoding: .utf8))
        #expect(names.hasSuffix(#""scope":null,"paused_from":"2025-10-04","paused_to":"2025-10-10","item":null}"# + "\n"))
        // A non-empty OUTDIR is refused.
        #expect(try CLI.run(["export", log, "--format", "flat", "--out", out]).status == 1)
    }

    @Test("export DIR: the source log's rows, each with its learner log's seq", arguments: [(7, 9, 5)])
    func directory(users: Int, days: Int, seed: Int) throws {
        let tmp = try TemporaryDirectory()
        let log = try LogFixture.demo(in: tmp, users: users, days: days, seed: seed)
        let dir = tmp.path("ledger.d")
        #expect(try CLI.run(["split", log, dir]).status == 0)
        #expect(try CLI.run(["export", log, "--format", "flat", "--out", tmp.path("a")]).status == 0)
        #expect(try CLI.run(["export", dir, "--format", "flat", "--out", tmp.path("b")]).status == 0)
        func keyed(_ out: String) throws -> [String: String] {
            var m: [String: String] = [:]
            for (folder, var row) in try Self.rows(out) {
                row["seq"] = nil
                let data = try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
                m[row["id"] as? String ?? ""] = folder + String(decoding: data, as: UTF8.self)
            }
            return m
        }
        let a = try keyed(tmp.path("a")), b = try keyed(tmp.path("b"))
        #expect(a.count > 100)
        #expect(a == b)
    }
}
