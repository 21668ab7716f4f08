import Events
import Ledger
import Projections

extension Route {
    /// `GET /v1/learners/{user}/state?day=D`: the bytes `state DIR --user U
    /// [--day D] --json` prints: the learner's state rebuilt from their log
    /// (the empty state for a learner without one).
    static let learnerState = Route(method: "GET", path: [.literal("v1"), .literal("learners"), .user, .literal("state")],
                                    access: .learner, query: ["day"]) { request, context throws(HTTPError) in
        let options = StateOptions(user: request.learner, day: try request.query.day("day"))
        var projector = LearnerProjector(options: options)
        let path = context.directory.learnerPath(user: request.learner)
        do throws(LedgerError) {
            if LedgerDirectory.isFile(path) {
                try LogReader(path: path).read(.init(user: request.learner)) { record in projector.apply(record) }
            }
        } catch {
            throw HTTPError(server: error, directory: context.directory)
        }
        return .json(projector.state().jsonBytes + [0x0A])
    }
}
