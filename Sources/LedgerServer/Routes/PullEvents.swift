import Ledger

extension Route {
    /// `GET /v1/learners/{user}/events?after=SEQ&limit=N`: the learner log's
    /// lines with seq greater than SEQ (default 0), at most N (default
    /// 10,000), byte for byte as `export --after` prints them
    /// (`application/x-ndjson`), with the log's head in `Ledger-Head:
    /// SEQ:SHA256` so a client knows whether to ask again. A learner without
    /// a log has no lines and the head `0:000…0`.
    ///
    /// The lines are sent from the file as the client reads them: the
    /// server's memory does not grow with the page.
    static let pullEvents = Route(method: "GET", path: [.literal("v1"), .literal("learners"), .user, .literal("events")],
                                  access: .learner, query: ["after", "limit"]) { request, context throws(HTTPError) in
        let after = try request.query.integer("after", in: 0...999_999_999_999_999_999, default: 0)   // 18 digits: what Query reads
        let limit = try request.query.integer("limit", in: 1...Self.maxPullLimit, default: Self.defaultPullLimit)
        do throws(LedgerError) {
            let slice = try context.logs.withWriter(user: request.learner, create: false) { (writer) throws(LedgerError) in
                try writer?.slice(after: after, limit: limit) ?? LogSlice(path: "", head: .empty)
            }
            return Response(status: 200, fields: [("Content-Type", "application/x-ndjson"), ("Ledger-Head", slice.head.description)],
                            body: .lines(slice))
        } catch {
            throw HTTPError(server: error, directory: context.directory)
        }
    }

    /// Lines a pull sends when `limit` is not given.
    static let defaultPullLimit = 10_000
    /// The largest `limit` a pull takes.
    static let maxPullLimit = 1_000_000
}
