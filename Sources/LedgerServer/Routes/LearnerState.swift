import Events
import Ledger
import Projections
import SyncWire

extension Route {
    /// `GET /v1/learners/{user}/state?day=D`: the bytes `state DIR --user U
    /// [--day D] --json` prints: the learner's state rebuilt from their log
    /// (the empty state for a learner without one).
    static let learnerState = Route(method: "GET", path: .learnerState,
                                    access: .learner, query: ["day"]) { request, context throws(HTTPError) in
        let options = StateOptions(user: request.learner, day: try request.query.day("day"))
        var projector = LearnerProjector(options: options)
        try context.store.forEachRecord(user: request.learner) { record in projector.apply(record) }
        return .json(projector.state().jsonBytes + [0x0A])
    }
}
