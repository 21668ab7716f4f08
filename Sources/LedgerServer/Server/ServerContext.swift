import Ledger

/// What every handler may use: the ledger directory and its open learner logs.
final class ServerContext: Sendable {
    /// The ledger directory served.
    let directory: LedgerDirectory
    /// Its learner logs, kept open.
    let logs: OpenLogs
    /// The key learner checkpoints are signed with (nil: none are).
    let checkpointKey: CheckpointKey?
    /// What `GET /metrics` reports.
    let metrics: ServerMetrics
    /// The learners' push rate limit (nil: none).
    let pushRate: PushRateLimit?

    init(directory: LedgerDirectory, openLogs: Int, checkpointKey: CheckpointKey? = nil, metrics: ServerMetrics = ServerMetrics(),
         maxPushRate: Int? = nil) {
        self.directory = directory
        self.checkpointKey = checkpointKey
        self.metrics = metrics
        pushRate = maxPushRate.map { PushRateLimit(eventsPerSecond: $0) }
        logs = OpenLogs(directory: directory, capacity: openLogs, metrics: metrics)
    }
}

extension HTTPError {
    /// The answer to a ledger failure that is not the client's doing: `500`
    /// with the ledger's kind (`not_durable`, `damaged`, `io`...) and its
    /// message, the learner log named by its place in the directory.
    init(server error: LedgerError, directory: LedgerDirectory) {
        var text = error.description
        if text.hasPrefix(directory.path + "/") { text = String(text.dropFirst(directory.path.count + 1)) }
        self.init(500, error.kind, text)
    }
}
