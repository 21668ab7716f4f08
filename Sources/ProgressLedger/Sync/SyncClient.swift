import Dispatch
import Events
import Ledger
import SyncWire

/// A device's side of sync with `progress-ledger serve` (docs/sync.md):
/// pushes the outbox's pending events, then pulls the learner's server log
/// into the replica page by page.
///
/// ```swift
/// let client = SyncClient(server: "https://sync.example", user: "u-42",
///                         outbox: dir + "/outbox.log", replica: dir + "/replica.log",
///                         token: { try await backend.freshToken() })
/// do {
///     let report = try await client.sync()       // push, then pull to the server's head
/// } catch let e where e.kind == .replicaDiverged || e.kind == .conflictingDuplicate {
///     // stop syncing and report it: never retried silently
/// }
/// ```
///
/// A request whose answer does not come (the transport throws) or is a
/// server error (`5xx`) is sent again (``RetryPolicy``): a push whose answer
/// was lost appends nothing twice (ids), a pull again from the replica's head
/// is the same pull. A `429` (the server's `--max-push-rate`) is sent again
/// after the `Retry-After` seconds it names (``maxRetryAfter`` at most, as
/// many times as ``RetryPolicy/attempts`` in a row; these waits are not
/// failures and do not use up the retries of transport errors).
/// Everything else stops the sync with a ``SyncError``:
/// `replica_diverged` (the server's log does not continue the replica),
/// `409 conflicting_duplicate`, and the server's refusals.
public struct SyncClient: Sendable {
    /// The server's base URL (`https://sync.example`, no trailing `/`).
    public let server: String
    /// The learner whose log is synced.
    public let user: String
    /// The device's outbox log (what it recorded).
    public let outbox: Outbox
    /// The device's replica of the learner's server log.
    public let replica: Replica
    private let token: @Sendable () async throws -> String
    private let transport: SyncTransport
    private let retry: RetryPolicy
    /// Events sent in one push request at most (the server's body limit is 8 MiB by default).
    public var eventsPerPush = 1_000
    /// Lines asked for in one pull request.
    public var linesPerPull = 10_000
    /// The longest wait a `429`'s `Retry-After` is honoured with, in seconds
    /// (a longer one stops the sync: `unavailable`, status 429).
    public var maxRetryAfter = 300.0
    /// The verifier key of the server's checkpoint key (`serve --key`;
    /// `keygen` prints it). When set, ``sync()`` ends by checking the
    /// learner log's signed checkpoint against the replica
    /// (``checkCheckpoint(into:)``, docs/receipts.md).
    public var checkpointVerifier: NoteVerifier?
    /// The origin the checkpoint must have (`serve --origin ORIGIN` signs
    /// `ORIGIN/USER`); nil: any origin the key signed.
    public var checkpointOrigin: String?

    /// A client for `user` at `server`, syncing the logs at `outbox` and
    /// `replica`, with a token from `token` for each request (the app's
    /// backend mints it), over `transport` (`URLSession` when not given).
    public init(server: String, user: String, outbox: String, replica: String,
                token: @escaping @Sendable () async throws -> String,
                transport: SyncTransport? = nil, retry: RetryPolicy = .standard) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.user = user
        self.outbox = Outbox(path: outbox)
        self.replica = Replica(path: replica)
        self.token = token
        self.transport = transport ?? SyncClient.urlSession()
        self.retry = retry
    }

    /// Pushes, then pulls: after it returns, the replica equals the learner's
    /// server log byte for byte (as of the last page) and the outbox has no
    /// pending event the server did not have.
    public func sync() async throws(SyncError) -> SyncReport {
        var report = SyncReport()
        try await push(into: &report)
        try await pull(into: &report)
        if checkpointVerifier != nil {
            // Pushes of other devices may land between the pull and the checkpoint: pull to it, a few times at most.
            for attempt in 1...3 {
                do throws(SyncError) {
                    try await checkCheckpoint(into: &report)
                    break
                } catch let error where error.kind == .unavailable && error.serverKind == Self.checkpointAhead && attempt < 3 {
                    try await pull(into: &report)
                }
            }
        }
        return report
    }

    /// The server's `kind` for a checkpoint past the replica's head (it grew since the pull).
    private static let checkpointAhead = "checkpoint_ahead"

    /// Fetches the learner log's signed checkpoint (`GET .../checkpoint`)
    /// and checks it with ``checkpointVerifier`` (and ``checkpointOrigin``):
    /// its signature, then that the replica's first `size` lines have its
    /// root: the server's signed word for the history the device holds.
    /// A refusal is ``SyncError/Kind/checkpointRefused``; a checkpoint past
    /// the replica's head is `unavailable` (pull, then check again).
    public func checkCheckpoint(into report: inout SyncReport) async throws(SyncError) {
        guard let verifier = checkpointVerifier else {
            throw SyncError(.local, "no checkpoint verifier key is set (checkpointVerifier)")
        }
        let response = try await send("GET", .learnerCheckpoint, body: [], into: &report)
        guard response.status == 200 else { throw Self.refusal(response) }
        let source = "the server's checkpoint (\(server))"
        let signed: SignedCheckpoint
        do throws(ReceiptError) {
            signed = try SignedCheckpoint(parsing: response.body, path: source)
            try signed.verify(with: verifier, origin: checkpointOrigin, path: source)
        } catch {
            throw SyncError(.checkpointRefused, serverKind: error.kind.rawValue, error.description)
        }
        let replica = replica
        let held = try await Self.local { () throws(LedgerError) in try replica.head() }
        guard signed.checkpoint.size <= held.seq else {
            throw SyncError(.unavailable, serverKind: Self.checkpointAhead, "the server's checkpoint is of \(signed.checkpoint.size) lines, "
                            + "the replica holds \(held.seq): pull, then check again")
        }
        let checkpoint = signed.checkpoint
        let mismatch: ReceiptError?
        if checkpoint.size == 0 {
            mismatch = checkpoint.root == MerkleTree.emptyRoot ? nil
                : ReceiptError(.root, path: replica.path, "the checkpoint of no lines has a root other than the empty tree's")
        } else {
            let (verified, found) = try await Self.local { () throws(LedgerError) in
                try LogTree(log: replica.path).verify(against: checkpoint, checkpointPath: source)
            }
            if let problem = verified.problem { throw SyncError(.local, "\(replica.path): \(problem)") }
            mismatch = found
        }
        if let mismatch { throw SyncError(.checkpointRefused, serverKind: mismatch.kind.rawValue, mismatch.description) }
        report.checkpoint = signed
    }

    /// Sends the outbox's pending events (those whose ids the replica does not
    /// hold), in batches of ``eventsPerPush``. A device that never recorded
    /// (no outbox file) has none.
    public func push(into report: inout SyncReport) async throws(SyncError) {
        let outbox = outbox, replicaPath = replica.path
        let pending = try await Self.local { () throws(LedgerError) -> [Outbox.PendingEvent] in
            guard LedgerDirectory.isFile(outbox.path) else { return [] }
            return try outbox.pending(replica: replicaPath)
        }
        var start = 0
        while start < pending.count {
            let batch = pending[start..<min(start + eventsPerPush, pending.count)]
            var body: [UInt8] = []
            for event in batch { body += event.json; body.append(0x0A) }
            let response = try await send("POST", .learnerEvents, body: body, into: &report)
            guard response.status == 200 else { throw Self.refusal(response) }
            guard let answer = PushAnswer(decoding: response.body), answer.events.count == batch.count else {
                throw SyncError(.unavailable, status: 200, "the server's answer to a push is not the documented JSON")
            }
            report.pushed += batch.count
            report.appended += answer.events.filter(\.appended).count
            start += batch.count
        }
    }

    /// Pulls the learner's server log after the replica's head, page by page,
    /// until the replica reaches the head the server reports (`Ledger-Head`).
    public func pull(into report: inout SyncReport) async throws(SyncError) {
        let replica = replica
        var cutShort = 0
        while true {
            let held = try await Self.local { () throws(LedgerError) in try replica.head() }
            let response = try await send("GET", .learnerEvents, query: PullQuery.text(after: held.seq, limit: linesPerPull),
                                          body: [], into: &report)
            guard response.status == 200 else { throw Self.refusal(response) }
            guard let text = Self.field(LedgerHeadField.name, of: response), let serverHead = LedgerHeadField.head(text) else {
                throw SyncError(.unavailable, status: 200, "the server's pull answer has no Ledger-Head")
            }
            guard serverHead.seq >= held.seq else {
                throw SyncError(.replicaDiverged, "the server's log has \(serverHead.seq) lines, fewer than the \(held.seq) this replica holds: "
                                + "it lost or rewrote history this device already saw. Nothing was written")
            }
            let body = response.body
            let result: PullResult
            do {
                result = try await Self.offThread { () throws(LedgerError) in try replica.pull(input: body, source: "the server's answer") }
            } catch {
                if error.code == .replicaDiverged { throw SyncError(.replicaDiverged, serverKind: error.kind, error.description) }
                if error.code == .invalidEvent {   // an answer cut short: the same pull again, as often as a send is retried
                    cutShort += 1
                    guard cutShort < retry.attempts else {
                        throw SyncError(.unavailable, status: 200, "the server's pull answer failed \(cutShort) times; the last: \(error.description)")
                    }
                    report.retries += 1
                    continue
                }
                throw SyncError(.local, error.description)
            }
            report.pulled += result.appended
            report.head = result.head.seq >= held.seq ? result.head : held
            if report.head.seq >= serverHead.seq {
                guard report.head == serverHead else {
                    throw SyncError(.replicaDiverged, "the replica's head \(report.head) differs from the server's \(serverHead) at the same seq. Nothing was written")
                }
                return
            }
            guard result.appended > 0 || !body.isEmpty else {
                throw SyncError(.unavailable, status: 200, "the server reports head \(serverHead) but sent no line after \(held.seq)")
            }
        }
    }

    // MARK: requests

    /// Sends a request about the learner (`path` for ``user``, then `?query`), retrying transport errors and `5xx`.
    private func send(_ method: String, _ path: RoutePath, query: String? = nil, body: [UInt8],
                      into report: inout SyncReport) async throws(SyncError) -> SyncResponse {
        let url = server + path.path(user: user) + (query.map { "?" + $0 } ?? "")
        var delay = retry.delay
        var attempt = 1
        var rateLimited = 0
        while true {
            var failure: String
            do {
                let bearer = try await token()
                var headers = ["Authorization": "Bearer \(bearer)"]
                if !body.isEmpty { headers["Content-Type"] = MediaType.ndjson }
                let response = try await transport(SyncRequest(method: method, url: url, headers: headers, body: body))
                if response.status == 429 {
                    rateLimited += 1
                    try await waitRetryAfter(response, times: rateLimited, into: &report)
                    continue
                }
                guard response.status >= 500 else { return response }
                failure = "\(method) \(url): \(response.status) " + (Refusal(status: response.status, body: response.body)?.message ?? "")
                if attempt >= retry.attempts { throw Self.refusal(response, kind: .unavailable) }
            } catch let error as SyncError {
                throw error
            } catch {
                failure = "\(method) \(url): \(error)"
            }
            guard attempt < retry.attempts else {
                throw SyncError(.unavailable, "no answer after \(attempt) tries; the last: \(failure)")
            }
            attempt += 1
            report.retries += 1
            if delay > 0 {
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                delay *= 2
            }
            if Task.isCancelled { throw SyncError(.unavailable, "the sync was cancelled after \(attempt - 1) tries; the last: \(failure)") }
        }
    }

    /// Waits the seconds a `429`'s `Retry-After` names (1 when it names none
    /// this client reads), or throws `unavailable` when that is too long or
    /// the `times`-th in a row is past ``RetryPolicy/attempts``.
    private func waitRetryAfter(_ response: SyncResponse, times: Int, into report: inout SyncReport) async throws(SyncError) {
        let seconds = Self.field(RetryAfterField.name, of: response).flatMap(RetryAfterField.seconds).map(Double.init) ?? 1
        guard times <= retry.attempts, seconds <= maxRetryAfter else {
            throw Self.refusal(response, kind: .unavailable)
        }
        report.retries += 1
        report.rateLimitedSeconds += seconds
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        if Task.isCancelled { throw SyncError(.unavailable, status: 429, "the sync was cancelled while waiting \(seconds) s for the server's rate limit") }
    }

    /// The error of a refused request: `409` is `conflictingDuplicate`, other statuses `kind` (`refused`).
    private static func refusal(_ response: SyncResponse, kind: SyncError.Kind = .refused) -> SyncError {
        let refusal = Refusal(status: response.status, body: response.body)
        let message = refusal?.message ?? String(decoding: response.body.prefix(500), as: UTF8.self)
        if response.status == 409 { return SyncError(.conflictingDuplicate, status: 409, serverKind: refusal?.kind, message) }
        return SyncError(kind, status: response.status, serverKind: refusal?.kind, message)
    }

    /// The value of the header field `name` (``SyncResponse`` keeps names in lowercase).
    private static func field(_ name: String, of response: SyncResponse) -> String? {
        response.headers[name.lowercased()]
    }

    /// Runs the device's own file work off the caller's thread; its failure is a `.local` error.
    private static func local<T: Sendable>(_ work: @escaping @Sendable () throws(LedgerError) -> T) async throws(SyncError) -> T {
        do { return try await offThread(work) } catch { throw SyncError(.local, error.description) }
    }

    private static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await LedgerStore.offThread(work)
    }
}
