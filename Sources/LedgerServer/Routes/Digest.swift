import Events
import Ledger

extension Route {
    /// `GET /v1/digest` (admin): `{"learners": N, "events": M, "digest": HEX}`,
    /// what `verify DIR` prints: every learner log checked, and the directory
    /// digest an auditor keeps. A damaged learner log is `500 damaged`,
    /// listing each as `verify DIR` does.
    static let digest = Route(method: "GET", path: [.literal("v1"), .literal("digest")], access: .admin) { _, context throws(HTTPError) in
        guard let directory = context.store.directory else { throw .notOnThisStore("the digest (GET /v1/digest)") }
        let report: DirectoryVerifyReport
        do throws(LedgerError) { report = try directory.verify() } catch {
            throw HTTPError(server: error, directory: directory)
        }
        guard let digest = report.digest else {
            let problems = report.problems.compactMap(\.problem)
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
