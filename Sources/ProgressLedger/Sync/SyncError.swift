import Ledger

/// Why a sync stopped. A refusal is never retried silently: the app shows it
/// or reports it.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What stopped the sync.
    public enum Kind: String, Sendable, Hashable {
        /// The server's log is not a continuation of this device's replica
        /// (it rewrote or lost lines the device already holds): `replica_diverged`.
        /// Nothing was written to the replica. Do not sync again before someone looks.
        case replicaDiverged = "replica_diverged"
        /// The server holds an id of a pending event with other content
        /// (`409 conflicting_duplicate`): nothing of the push was written.
        case conflictingDuplicate = "conflicting_duplicate"
        /// The server refused the request (`401`, `403`, `400`, `413`...):
        /// ``serverKind`` says why (`unauthorized`, `forbidden`, `invalid_data`...).
        case refused
        /// The server could not be reached, or kept failing (`5xx`), through every retry.
        case unavailable
        /// The device's own outbox or replica could not be read or written.
        case local
        /// The server's signed checkpoint of the learner log was refused
        /// (``SyncClient/checkpointVerifier``): not signed by that key, of
        /// another origin, or its root is not the replica's at its size (the
        /// server signed a history other than the one it served).
        /// Do not trust the server's log before someone looks.
        case checkpointRefused = "checkpoint_refused"
    }

    /// What stopped the sync.
    public var kind: Kind
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// The refusal's kind as the server named it (`unauthorized`, `conflicting_duplicate`...).
    public var serverKind: String?
    /// What happened, for a person (the server's message when it gave one).
    public var message: String

    /// Makes one.
    public init(_ kind: Kind, status: Int? = nil, serverKind: String? = nil, _ message: String) {
        self.kind = kind; self.status = status; self.serverKind = serverKind; self.message = message
    }

    /// `KIND (STATUS SERVERKIND): message`.
    public var description: String {
        var text = kind.rawValue
        if let status { text += " (\(status)\(serverKind.map { " " + $0 } ?? ""))" }
        return text + ": " + message
    }
}

/// How the sync client retries a request whose answer did not come (a
/// transport error) or was a server error (`5xx`): `attempts` in all, the
/// first retry after `delay` seconds, each next one after twice the last.
public struct RetryPolicy: Sendable, Hashable {
    /// Tries in all (at least 1).
    public var attempts: Int
    /// Seconds before the first retry.
    public var delay: Double

    /// Makes one.
    public init(attempts: Int, delay: Double) {
        self.attempts = max(1, attempts); self.delay = max(0, delay)
    }

    /// 5 tries, retries after 0.5, 1, 2 and 4 seconds.
    public static let standard = RetryPolicy(attempts: 5, delay: 0.5)
}

/// What a sync did.
public struct SyncReport: Sendable, Hashable {
    /// Pending events sent.
    public var pushed = 0
    /// Of those, how many the server appended now (the others it already held: an earlier push whose answer was lost).
    public var appended = 0
    /// Lines pulled into the replica.
    public var pulled = 0
    /// Requests sent again after a transport error, a server error or a `429`.
    public var retries = 0
    /// Seconds waited for the server's rate limit (`429`'s `Retry-After`).
    public var rateLimitedSeconds = 0.0
    /// The replica's head at the end (the server's, after a full sync).
    public var head = Head.empty
    /// The server's signed checkpoint the replica was checked against
    /// (``SyncClient/checkpointVerifier``; nil when none was asked for).
    public var checkpoint: SignedCheckpoint?

    /// An empty report.
    public init() {}
}
