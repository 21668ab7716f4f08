import Ledger

/// One client connection: the bytes received and not yet used, where its
/// current request is, and the answer being sent.
///
/// Held by one thread at a time: the reactor, or the worker answering it
/// (handed over through ``JobQueue`` and ``Inbox``, whose locks order the
/// accesses). `@unchecked Sendable` for that hand-over.
final class Connection: @unchecked Sendable {
    /// Where the connection is.
    enum Phase {
        /// Waiting for (the rest of) a request's head; idle between requests.
        case head
        /// The head is accepted; waiting for the body's bytes.
        case body(AcceptedHead)
        /// A worker has it.
        case handling
        /// Sending the answer (the reactor finishes what a worker could not send at once).
        case writing
        /// The answer was sent and the write side shut: reading what the client
        /// still sends (a body not read) until it closes or `until`, so it reads
        /// the answer instead of a reset.
        case lingering(until: UInt64)
        /// Closed by the worker that had it.
        case closed
    }

    /// A request head that passed the checks made before its body is read.
    struct AcceptedHead {
        var head: RequestHead
        var route: Route
        var request: RouteRequest
        var headLength: Int
        var bodyLength: Int
    }

    /// The reactor's number for it (descriptors are reused, numbers are not).
    let id: Int
    /// The socket.
    let fd: CInt
    /// The peer's numeric address (`-` when it could not be had).
    let peer: String
    var phase = Phase.head
    /// Received bytes not used yet (a request's head and body, or the next request's start).
    var input: [UInt8] = []
    /// When bytes last came in or went out (monotonic nanoseconds).
    var lastActivity: UInt64
    /// When the head being received began: its first byte, or the accept
    /// (nil while idle between requests). The head must be whole within the
    /// read timeout from then, however its bytes trickle in.
    var headSince: UInt64?
    /// How many bytes of ``input`` hold no head's end (the parser resumes there).
    var headScanned = 0
    /// When the body being received must be whole (phase `.body`).
    var bodyDeadline: UInt64 = .max
    /// Whether the connection stays open after the answer being sent.
    var keepAlive = true
    /// Whether a worker holds it (set and read by the reactor only: while
    /// true, the reactor neither polls nor times out nor closes it).
    var heldByWorker = false
    /// The `Authorization` value verified last on this connection, and its token.
    var verified: (String, Token)?

    /// The answer's bytes to send, from `sent` on.
    private var output: [UInt8] = []
    private var sent = 0
    /// The answer's body still to read from a learner log.
    private var lines: LogSlice?

    /// The request's HTTP minor version (1 until a head says otherwise): an
    /// HTTP/1.0 client kept alive is told so (`Connection: keep-alive`).
    var minorVersion = 1
    /// Whether the request is a `HEAD`: its answer is sent without its body.
    var answersHead = false

    /// For the access line: the request, when its head was parsed.
    var method = "-"
    var logPath = "-"
    var client: String
    var started: UInt64 = 0
    /// For the metrics: the request's route (`none` until one matched).
    var route = ServerMetrics.RouteLabel.none
    private var status = 0
    private var bytesOut = 0

    init(id: Int, fd: CInt, peer: String, now: UInt64) {
        self.id = id; self.fd = fd; self.peer = peer; client = peer; lastActivity = now; headSince = now
    }

    /// The head is parsed: what the answer and the access line need of it.
    func began(_ head: RequestHead?, trustedProxy: String?, logging: Bool) {
        started = System.monotonicNanoseconds()
        headSince = nil
        guard let head else { return }
        method = head.method
        keepAlive = head.keepAlive
        minorVersion = head.minorVersion
        answersHead = head.method == "HEAD"
        if logging {
            logPath = AccessLine.path(head)
            client = AccessLine.client(peer: peer, head: head, trustedProxy: trustedProxy)
        }
    }

    /// Whether the reactor polls it for reading.
    var wantsRead: Bool {
        switch phase {
        case .head, .body, .lingering: true
        case .handling, .writing, .closed: false
        }
    }

    /// Whether the reactor polls it for writing.
    var wantsWrite: Bool {
        if case .writing = phase { return true }
        return false
    }

    /// Whether no request of it is in flight (idle, or a head not complete):
    /// closed at once when the server stops.
    var isBetweenRequests: Bool {
        if case .head = phase { return true }
        return false
    }

    /// When it is closed if nothing happens (nil: a worker has it): a head
    /// not whole `timeout` after it began, a body not whole by its deadline,
    /// or `timeout` without a byte in or out.
    func deadline(timeout: UInt64) -> UInt64? {
        switch phase {
        case .head: (headSince ?? lastActivity) &+ timeout
        case .body: min(lastActivity &+ timeout, bodyDeadline)
        case .writing: lastActivity &+ timeout
        case .handling, .closed: nil
        case .lingering(let until): until
        }
    }

    // MARK: reading

    /// What one ``receive(_:into:)`` got.
    enum Received { case bytes, nothing, closed }

    /// Reads what the socket holds (a few reads at most) into ``input``.
    func receive(_ system: System, into scratch: inout [UInt8]) -> Received {
        var got = false
        for _ in 0..<4 {
            let result = scratch.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try system.receive(fd, into: buffer) }
            }
            guard case .success(let received) = result else { return .closed }
            guard let n = received else { break }
            guard n > 0 else { return .closed }   // the client closed its side
            got = true
            lastActivity = System.monotonicNanoseconds()
            if case .lingering = phase { continue }   // discarded
            if case .head = phase, headSince == nil { headSince = lastActivity }
            input.append(contentsOf: scratch[0..<n])
            if n < scratch.count { break }
        }
        return got ? .bytes : .nothing
    }

    // MARK: answering

    /// Starts sending `response`, and counts it in `metrics` (before its
    /// first byte: a client that has read it finds it counted).
    func startAnswer(_ response: Response, keepAlive: Bool, metrics: ServerMetrics) {
        let now = System.monotonicNanoseconds()
        metrics.answered(route: route, status: response.status, refusal: response.refusal, nanoseconds: now > started ? now - started : 0)
        route = .none
        self.keepAlive = keepAlive
        if response.closes { input.removeAll() }
        status = response.status
        output = response.head(keepAlive: keepAlive, minorVersion: minorVersion)
        if answersHead {
            // The headers a GET would have, Content-Length included; no body (RFC 9110, 9.3.2).
            bytesOut = 0
            if case .lines(let slice) = response.body { slice.close() }
            lines = nil
        } else {
            bytesOut = response.body.count
            switch response.body {
            case .bytes(let bytes): output += bytes; lines = nil
            case .lines(let slice): lines = slice
            }
        }
        sent = 0
        phase = .writing
    }

    /// How far ``send(_:)`` got.
    enum Sent { case finished, blocked, failed }

    /// Sends what it can of the answer without waiting: all of it
    /// (`.finished`), until the client's buffer is full (`.blocked`: poll for
    /// writing and call again), or not (`.failed`: close the connection).
    func send(_ system: System) -> Sent {
        while true {
            if sent == output.count {
                guard let lines, lines.remaining > 0 else { return .finished }
                // The next piece of the learner log's lines.
                let chunk = min(lines.remaining, 256 << 10)
                output = [UInt8](repeating: 0, count: chunk)
                sent = 0
                let n = output.withUnsafeMutableBytes { buffer in
                    Result { () throws(LedgerError) in try lines.read(into: buffer) }
                }
                // A log that cannot be read mid-answer: the answer cannot be completed, so the connection ends.
                guard case .success(let count) = n, count > 0 else { return .failed }
                output.removeLast(chunk - count)
            }
            let result = output.withUnsafeBytes { bytes in
                Result { () throws(SystemCallError) in try system.send(fd, UnsafeRawBufferPointer(rebasing: bytes[sent...])) }
            }
            guard case .success(let n) = result else { return .failed }
            if n == 0 { return .blocked }
            sent += n
            lastActivity = System.monotonicNanoseconds()
        }
    }

    /// The answer is sent: writes its access line, then readies the
    /// connection for the next request, or (not `keepAlive`) shuts its write
    /// side and lingers for at most `linger` nanoseconds.
    func finishAnswer(_ system: System, accessLog: (@Sendable (String) -> Void)?, linger: UInt64) {
        lines?.close()
        lines = nil
        if let accessLog {
            accessLog(AccessLine.format(at: System.wallClockMilliseconds(), client: client, method: method, path: logPath, status: status,
                                        bytes: bytesOut, nanoseconds: System.monotonicNanoseconds() &- started))
        }
        output = []
        sent = 0
        method = "-"
        logPath = "-"
        client = peer
        minorVersion = 1
        answersHead = false
        lastActivity = System.monotonicNanoseconds()
        headSince = input.isEmpty ? nil : lastActivity   // a request already received (pipelined) began now
        if keepAlive {
            phase = .head
        } else {
            system.shutdownWrite(fd)
            phase = .lingering(until: lastActivity + linger)
        }
    }

    /// Closes the socket (and a learner log being sent).
    func close(_ system: System) {
        lines?.close()
        lines = nil
        system.close(fd)
        phase = .closed
    }
}
