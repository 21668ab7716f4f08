import Events
import Ledger

extension Route {
    /// `GET /v1/digest` (admin): `{"learners": N, "events": M, "digest": HEX}`,
    /// what `verify DIR` prints: every learner log checked, and the directory
    /// digest an auditor keeps (over PostgreSQL: of the directory `export
    /// --store` writes). A damaged learner log is `500 damaged`, listing
    /// each as `verify DIR` does (by its place in the directory).
    static let digest = Route(method: "GET", path: [.literal("v1"), .literal("digest")], access: .admin) { _, context throws(HTTPError) in
        // The problems named by their place in the directory (`learners/HH/H64.log: line K: ...`), as other errors are.
        let (report, problems) = try context.store.withDirectory { (directory) throws(LedgerError) in
            let report = try directory.verify()
            return (report, report.problems.compactMap(\.problem).map(directory.relative))
        }
        guard let digest = report.digest else {
            var e = HTTPError(500, "damaged", "\(problems.count) of \(report.learnerCount) learner logs damaged: " + problems.joined(separator: "; "))
            e.members = [JSONMember("problems", .array(problems.map { .string($0) }))]
            throw e
        }
        var w = JSONWriter()
        w.value(.object([JSONMember("learners", .number(String(report.learnerCount))), JSONMember("events", .number(String(report.events))),
                         JSONMember("digest", .string(digest.hex))]))
        return .json(w.bytes + [0x0A])
    }
}
