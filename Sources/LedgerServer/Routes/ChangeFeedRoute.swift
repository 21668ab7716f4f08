import Events
import Ledger

extension Route {
    /// `GET /v1/events?after=CURSOR&limit=N&wait=SECONDS` (admin): every
    /// learner's new lines in commit order, `{"events":[{"user":U,"seq":N,
    /// "line":{…}}…],"next":"CURSOR"}`, each `line` its learner log's line
    /// byte for byte; ask again with `after=` the `next` given. A line whose
    /// transaction commits after a later-numbered one's is held back until
    /// it is done, never skipped (``FeedCursor``). With `wait`, a page that
    /// would be empty waits until a push commits (any server on the
    /// database) or the seconds pass; while lines are held back, it looks
    /// again every few milliseconds (backing off to a second), since the
    /// transaction holding them may end without a push. On a ledger directory: `501
    /// not_on_this_store` (docs/sync.md, "The change feed").
    static let changeFeed = Route(method: "GET", path: [.literal("v1"), .literal("events")], access: .admin,
                                  query: ["after", "limit", "wait"]) { request, context throws(HTTPError) in
        var cursor = FeedCursor.start
        if let text = request.query["after"] {
            guard let given = FeedCursor(text) else {
                throw .badRequest("after is \(text), not a cursor (TRANSACTION.SEQ, as a page's next gives it)")
            }
            cursor = given
        }
        let limit = try request.query.integer("limit", in: 1...Self.maxFeedLimit, default: Self.defaultFeedLimit)
        let wait = try request.query.integer("wait", in: 0...Self.maxWaitSeconds, default: 0)
        let page = try Self.waiting(seconds: wait, on: context.store.changes) { () throws(HTTPError) in
            let page = try context.store.feed(after: cursor, limit: limit)
            return (page, !page.lines.isEmpty ? .found : page.heldBack ? .soon : .nothing)
        }
        return .json(page.json)
    }

    /// Lines a page of the feed holds when `limit` is not given.
    static let defaultFeedLimit = 1_000
    /// The largest `limit` the feed takes.
    static let maxFeedLimit = 100_000
}
