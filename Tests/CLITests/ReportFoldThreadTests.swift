import Events
import Foundation
import Ledger
import Projections
import Testing

/// `report` folds on a thread of its own, in batches of records handed over
/// from the reader's ordered thread. The JSON must be what folding the same
/// records in order, in this process, gives: several batches, a partial last
/// one, several logs, and a range.
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
}
