import Ledger
import SyncWire

extension Route {
    /// `GET /v1/learners/{user}/events?after=SEQ&limit=N`: the learner log's
    /// lines with seq greater than SEQ (default 0), at most N (default
    /// 10,000), byte for byte as `export --after` prints them
    /// (`application/x-ndjson`), with the log's head in `Ledger-Head:
    /// SEQ:SHA256` so a client knows whether to ask again. A learner without
    /// a log has no lines and the head `0:000…0`. With `wait=SECONDS` (at most
    /// 60), a pull that finds no line waits until a push brings one (on a
    /// PostgreSQL store, a push through any server on the database) or the
    /// seconds pass.
    ///
    /// The lines are sent from the file as the client reads them: the
    /// server's memory does not grow with the page.
    static let pullEvents = Route(method: "GET", path: .learnerEvents, access: .learner,
                                  query: PullQuery.names) { request, context throws(HTTPError) in
        let after = try request.query.integer(PullQuery.after, in: 0...999_999_999_999_999_999, default: 0)   // 18 digits: what Query reads
        let limit = try request.query.integer(PullQuery.limit, in: 1...Self.maxPullLimit, default: Self.defaultPullLimit)
        let wait = try request.query.integer(PullQuery.wait, in: 0...Self.maxWaitSeconds, default: 0)
        let (head, body) = try Self.waiting(seconds: wait, on: context.store.changes) { () throws(HTTPError) in
            let answer = try context.store.lines(user: request.learner, after: after, limit: limit)
            return (answer, answer.body.count > 0 ? .found : .nothing)
        }
        return Response(status: 200, fields: [("Content-Type", MediaType.ndjson), (LedgerHeadField.name, LedgerHeadField.value(head))], body: body)
    }

    /// The most seconds a request may wait for something new (`wait=`).
    static let maxWaitSeconds = 60

    /// What a look of ``waiting(seconds:on:_:)`` found.
    enum Look {
        /// Something to answer with.
        case found
        /// Nothing: wait for the store's next change.
        case nothing
        /// Nothing yet, but something will show without a change being
        /// signalled (the feed's lines held back behind an older transaction,
        /// ``FeedPage/heldBack``): look again soon, as well as on a change.
        case soon
    }

    /// `look`'s answer once it found something, or after `seconds` (0: at
    /// once): looked at again after each change the store signals, and, while
    /// it answers ``Look/soon``, every 10 ms at first, backing off to a second.
    static func waiting<T>(seconds: Int, on changes: ChangeSignal,
                           _ look: () throws(HTTPError) -> (T, Look)) throws(HTTPError) -> T {
        let deadline = System.monotonicNanoseconds() + UInt64(seconds) * 1_000_000_000
        var poll: UInt64 = 10_000_000
        while true {
            let seen = changes.generation
            let (answer, found) = try look()
            let now = System.monotonicNanoseconds()
            if found == .found || now >= deadline { return answer }
            var until = deadline - now
            if found == .soon {
                until = min(until, poll)
                poll = min(poll * 2, 1_000_000_000)
            }
            changes.wait(since: seen, seconds: Double(until) / 1e9)
        }
    }

    /// Lines a pull sends when `limit` is not given.
    static let defaultPullLimit = 10_000
    /// The largest `limit` a pull takes.
    static let maxPullLimit = 1_000_000
}
