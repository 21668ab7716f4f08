import Ledger
import Dispatch

/// What `GET /metrics` reports (docs/sync.md, "Metrics"): requests by route
/// and status with their latencies, pushes and the events they appended,
/// fsync times, open connections and learner logs, refusals by kind, and the
/// build. Workers, the reactor and the push route record into it; a scrape
/// renders it in Prometheus's text format (``render()``).
///
/// Lock-cheap: each observation takes one of two small locks for a few
/// additions (a request's answer one, a push's events and fsync the other),
/// never while doing I/O; the labels' sets are bounded (routes are the API's
/// templates, never a client's path; kinds and statuses are the server's own).
package final class ServerMetrics: @unchecked Sendable {
    /// A route as the metrics label it: its method and path template (`POST`, `/v1/learners/{user}/events`).
    struct RouteLabel: Hashable, Sendable {
        var method: String   // not a format string: an HTTP method of the server's own routes
        var path: String   // not a format string: a route's path template, never a client's path
        /// A request no route matched, or refused before its head was understood.
        static let none = RouteLabel(method: "none", path: "none")
    }
    private struct RequestKey: Hashable { var route: RouteLabel; var status: Int }
    private struct RefusalKey: Hashable { var kind: String; var status: Int }

    /// The version `progress_ledger_build_info` names.
    let version: String

    // Guarded by `requestsLock`.
    private let requestsLock = DispatchSemaphore(value: 1)
    private var requests: [RequestKey: UInt64] = [:]
    private var latencies: [RouteLabel: Histogram] = [:]
    private var refusals: [RefusalKey: UInt64] = [:]
    private var connections = 0
    private var connectionsAccepted: UInt64 = 0

    // Guarded by `appendsLock`.
    private let appendsLock = DispatchSemaphore(value: 1)
    private var pushes: UInt64 = 0
    private var eventsAppended: UInt64 = 0
    private var eventsAlreadyPresent: UInt64 = 0
    private var fsyncs = Histogram(bounds: Histogram.fsyncBounds)
    private var learnerLogs = 0

    /// A registry with every count at zero.
    package init(version: String = "unknown") { self.version = version }

    /// One answer, as it starts to be sent: its route, status, refusal kind
    /// (nil for a success) and how long from its head's arrival until then.
    func answered(route: RouteLabel, status: Int, refusal: String?, nanoseconds: UInt64) {
        requestsLock.wait()
        defer { requestsLock.signal() }
        requests[RequestKey(route: route, status: status), default: 0] &+= 1
        latencies[route, default: Histogram(bounds: Histogram.requestBounds)].observe(nanoseconds)
        if let refusal { refusals[RefusalKey(kind: refusal, status: status), default: 0] &+= 1 }
    }

    /// The reactor's connections now (accepted and not closed), and how many it accepted in all.
    func connections(open: Int, accepted: Int) {
        requestsLock.wait()
        connections = open
        connectionsAccepted = UInt64(accepted)
        requestsLock.signal()
    }

    /// One push appended: `appended` events written, `alreadyPresent` found in the log (idempotent re-sends).
    func pushed(appended: Int, alreadyPresent: Int) {
        appendsLock.wait()
        pushes &+= 1
        eventsAppended &+= UInt64(appended)
        eventsAlreadyPresent &+= UInt64(alreadyPresent)
        appendsLock.signal()
    }

    /// One fsync of a push's lines, and how long it took.
    func fsynced(nanoseconds: UInt64) {
        appendsLock.wait()
        fsyncs.observe(nanoseconds)
        appendsLock.signal()
    }

    /// A learner log's writer opened (`+1`) or closed (`-1`).
    func learnerLogs(_ change: Int) {
        appendsLock.wait()
        learnerLogs += change
        appendsLock.signal()
    }

    /// Every metric in Prometheus's text format (0.0.4), families in a fixed
    /// order and their samples sorted, so two scrapes differ only in numbers.
    package func render() -> [UInt8] {
        requestsLock.wait()
        let requests = requests, latencies = latencies, refusals = refusals
        let connections = connections, accepted = connectionsAccepted
        requestsLock.signal()
        appendsLock.wait()
        let pushes = pushes, appended = eventsAppended, present = eventsAlreadyPresent, fsyncs = fsyncs, logs = learnerLogs
        appendsLock.signal()

        var t = PrometheusText()
        t.family("progress_ledger_build_info", "gauge", "The server's version; always 1.")
        t.sample("progress_ledger_build_info", [("version", version)], "1")

        t.family("progress_ledger_http_requests_total", "counter",
                 "Requests answered, by route (its method and the API's path template; none: no route matched) and status.")
        for key in requests.keys.sorted(by: { ($0.route.path, $0.route.method, $0.status) < ($1.route.path, $1.route.method, $1.status) }) {
            t.sample("progress_ledger_http_requests_total", [("method", key.route.method), ("route", key.route.path), ("status", String(key.status))],
                     String(requests[key] ?? 0))
        }
        t.family("progress_ledger_http_request_duration_seconds", "histogram",
                 "Seconds from a request's head received to its answer ready to send, by route.")
        for route in latencies.keys.sorted(by: { ($0.path, $0.method) < ($1.path, $1.method) }) {
            latencies[route]?.write("progress_ledger_http_request_duration_seconds", labels: [("method", route.method), ("route", route.path)], to: &t)
        }
        t.family("progress_ledger_refusals_total", "counter", "Requests refused, by the refusal's kind (the JSON body's error) and status.")
        for key in refusals.keys.sorted(by: { ($0.kind, $0.status) < ($1.kind, $1.status) }) {
            t.sample("progress_ledger_refusals_total", [("kind", key.kind), ("status", String(key.status))], String(refusals[key] ?? 0))
        }
        t.single("progress_ledger_open_connections", "gauge", "Client connections open now.", String(connections))
        t.single("progress_ledger_connections_accepted_total", "counter", "Client connections accepted.", String(accepted))
        t.single("progress_ledger_open_learner_logs", "gauge", "Learner logs open now (one writer and descriptor each).", String(logs))
        t.single("progress_ledger_appends_total", "counter", "Pushes taken (each all or nothing; one write and one fsync when any of its events is new).", String(pushes))
        t.single("progress_ledger_events_appended_total", "counter", "Events written by pushes.", String(appended))
        t.single("progress_ledger_events_already_present_total", "counter", "Events pushed again that the log already held (nothing written).", String(present))
        t.family("progress_ledger_fsync_duration_seconds", "histogram", "Seconds each push's fsync took.")
        fsyncs.write("progress_ledger_fsync_duration_seconds", labels: [], to: &t)
        return Array(t.text.utf8)
    }
}

extension ServerMetrics {
    /// A push's results: its events appended and already present, and its
    /// fsync's time when it wrote any (`fsync`: the writer's last).
    func pushed(_ results: [AppendResult], fsync: UInt64) {
        let appended = results.count { $0.status == .appended }
        pushed(appended: appended, alreadyPresent: results.count - appended)
        if appended > 0 { fsynced(nanoseconds: fsync) }
    }
}
