import Events
import Ledger
import LedgerAnalytics

extension Route {
    /// `GET /v1/report?from=D&to=D` (admin): the bytes `report DIR --format
    /// json [--from D] [--to D]` prints, every learner log folded (over
    /// PostgreSQL: of the directory `export --store` writes).
    static let report = Route(method: "GET", path: [.literal("v1"), .literal("report")], access: .admin,
                              query: ["from", "to"]) { request, context throws(HTTPError) in
        let from = try request.query.day("from"), to = try request.query.day("to")
        if let from, let to, from > to { throw .badRequest("from (\(from)) is after to (\(to))") }
        // A report has a row per day: a range is kept to what a report is for.
        for day in [from, to].compactMap({ $0 }) where !(Self.reportDays).contains(day) {
            throw .badRequest("\(day) is outside the days a report covers (\(Self.reportDays.lowerBound) to \(Self.reportDays.upperBound))")
        }
        if let from, let to, to.ordinal - from.ordinal >= Self.maxReportDays {
            throw .badRequest("from \(from) to \(to) is over \(Self.maxReportDays) days; ask for ten years at most")
        }
        let report = try context.store.withDirectory { (directory) throws(LedgerError) in
            try LedgerSource.directory(directory).report(from: from, to: to)
        }
        return .json(report.json + [0x0A])
    }

    /// The days a report's `from` and `to` may name.
    static let reportDays = (Day("1970-01-01") ?? Day(ordinal: 0))...(Day("2199-12-31") ?? Day(ordinal: 0))
    /// The most days one report covers when both ends are given.
    static let maxReportDays = 3_660
}
