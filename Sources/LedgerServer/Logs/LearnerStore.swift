import Events
import Ledger
import SyncWire

/// Where the server keeps its learner logs: the storage seam under the
/// routes. Two kinds: a ledger directory (``DirectoryStore``, one file a
/// learner, the default) and PostgreSQL (``PostgresStore``, `serve --store
/// postgresql://…`, one row a line). Either way the writer's rules decide
/// `seq`, `prev`, ids, conflicting duplicates and each line's bytes
/// (`LedgerWriter`, `StoredLog`, over the one `Chain.seal`), so a learner's
/// lines are the same bytes in both.
protocol LearnerStore: Sendable {
    /// Appends `events` (decoded from the push's `lines`) to `user`'s log,
    /// all or nothing: each event's result and the log's head after.
    /// Answered only once the lines are durable; `durableNanoseconds` is how
    /// long making them durable took (the fsync, or the commit), for metrics.
    func push(user: String, events: [NewEvent], lines: [AppendInput.Line]) throws(HTTPError) -> (results: [AppendResult], head: Head, durableNanoseconds: UInt64)
    /// The head of `user`'s log (`Head.empty` without one).
    func head(user: String) throws(HTTPError) -> Head
    /// The lines of `user`'s log after seq `after`, at most `limit`, and the head.
    func lines(user: String, after: Int, limit: Int) throws(HTTPError) -> (head: Head, body: Response.Body)
    /// Hands `body` each record of `user`'s log, in order (none without one).
    func forEachRecord(user: String, _ body: (Record) -> Void) throws(HTTPError)
    /// Calls `body` with the store's learner logs as a ledger directory, for
    /// the reads over every learner (the report, the digest), which are the
    /// directory's own code (`report DIR`, `verify DIR`), so both stores
    /// answer the same bytes for the same lines: the directory itself, or
    /// (PostgreSQL) the directory `export --store` writes, made from one
    /// snapshot in a scratch folder for the call and removed after. A ledger
    /// error of `body` is answered as the directory store answers it (`500`,
    /// the learner log named by its place in the directory).
    func withDirectory<T>(_ body: (LedgerDirectory) throws(LedgerError) -> T) throws(HTTPError) -> T
    /// Calls `body` with a ledger directory holding `user`'s learner log as
    /// it is at one moment (no push lands during the call) and its number of
    /// lines then; nil when the learner has no log (nor lines). For a
    /// learner's checkpoint, read by `LogTree` as `checkpoint DIR` reads it.
    func withLearnerLog<T>(user: String, _ body: (LedgerDirectory, _ lines: Int?) throws(LedgerError) -> T) throws(HTTPError) -> T
    /// Every learner's new lines in commit order after `cursor` (``ChangeFeed``).
    func feed(after cursor: FeedCursor, limit: Int) throws(HTTPError) -> FeedPage
    /// Signalled when a push may have added lines (here, or through another
    /// process on the same database): what `wait=` waits on.
    var changes: ChangeSignal { get }
}

extension HTTPError {
    /// `501 not_on_this_store`: a route this store does not answer (the
    /// change feed over a ledger directory).
    static func notOnThisStore(_ what: String) -> HTTPError {
        HTTPError(501, "not_on_this_store", "\(what) is answered over a PostgreSQL store only (serve --store postgresql://…)")
    }

    /// `503 unavailable` with `Retry-After: 1`: the store cannot answer now
    /// (its database went away, a failover); nothing was acknowledged, and the
    /// same request may be sent again (a push is idempotent by id).
    static func unavailable(_ message: String) -> HTTPError {
        var e = HTTPError(503, "unavailable", message)
        e.headers = [(RetryAfterField.name, RetryAfterField.value(seconds: 1))]
        return e
    }
}
