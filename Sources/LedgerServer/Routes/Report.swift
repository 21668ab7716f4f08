import Events
import Ledger
import LedgerAnalytics

extension Route {
    /// `GET /v1/report?from=D&to=D` (admin): the bytes `report DIR --format
    /// json [--from D] [--to D]` prints, every learner log folded.
    static let report = Route(method: "GET", path: [.literal("v1"), .literal("report")], access: .admin,
                              query: ["from", "to"]) { request, context throws(HTTPError) in
        let from = try request.query.day("from"), to = try request.query.day("to")
        if let from, let to, from > to { throw .badRequest("from (\(from)) is after to (\(to))") }
        do throws(LedgerError) {
            let report = try LedgerSource.directory(context.directory).report(from: from, to: to)
            return .json(report.json + [0x0A])
        } catch {
            throw HTTPError(server: error, directory: context.directory)
        }
    }
}
