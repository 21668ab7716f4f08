import Events
import Ledger
import SyncWire

extension Route {
    /// `GET /v1/learners/{user}/head`: `{"seq": N, "sha256": HEX}`, the
    /// learner log's head (`0` and 64 zeros for a learner without a log).
    static let learnerHead = Route(method: "GET", path: .learnerHead,
                                   access: .learner) { request, context throws(HTTPError) in
        let head = try context.store.head(user: request.learner)
        var w = JSONWriter()
        w.value(.object([JSONMember("seq", .number(String(head.seq))), JSONMember("sha256", .string(head.sha256.hex))]))
        return .json(w.bytes + [0x0A])
    }
}
