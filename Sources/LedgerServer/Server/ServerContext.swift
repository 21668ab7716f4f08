import Ledger

/// What every handler may use: the store of learner logs (a ledger
/// directory or PostgreSQL, ``LearnerStore``).
final class ServerContext: Sendable {
    /// Where the learner logs are kept.
    let store: any LearnerStore
    /// The key learner checkpoints are signed with (nil: none are).
    let checkpointKey: CheckpointKey?
    /// What `GET /metrics` reports.
    let metrics: ServerMetrics
    /// The learners' push rate limit (nil: none).
    let pushRate: PushRateLimit?

    init(store: any LearnerStore, checkpointKey: CheckpointKey? = nil, metrics: ServerMetrics = ServerMetrics(),
         maxPushRate: Int? = nil) {
        self.store = store
        self.checkpointKey = checkpointKey
        self.metrics = metrics
        pushRate = maxPushRate.map { PushRateLimit(eventsPerSecond: $0) }
    }
}

extension HTTPError {
    /// The answer to a ledger failure that is not the client's doing: `500`
    /// with the ledger's kind (`not_durable`, `damaged`, `io`...) and its
    /// message, the learner log named by its place in the directory (if any).
    init(server error: LedgerError, directory: LedgerDirectory?) {
        self.init(500, error.kind, directory.map { $0.relative(error.description) } ?? error.description)
    }
}

extension LedgerDirectory {
    /// `text` (a message) without the directory's path at its start: a
    /// learner log named by its place in the directory (`learners/HH/H64.log:
    /// ...`), the same whichever folder holds it.
    func relative(_ text: String) -> String {
        text.hasPrefix(path + "/") ? String(text.dropFirst(path.count + 1)) : text
    }
}
