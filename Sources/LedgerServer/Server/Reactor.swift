import Ledger

/// The one thread that touches the sockets: it accepts connections, reads
/// requests as their bytes come (non-blocking, one `poll` over every
/// connection), refuses what it must before a body is read (route, token,
/// size), hands whole requests to the workers, and sends their answers as
/// each client takes them. A slow or idle client holds only its own
/// connection: nothing here ever waits for one.
///
/// Deadlines: a connection that sends nothing, or takes nothing of its
/// answer, for `readTimeout` is closed; one being answered by a worker has none.
final class Reactor {
    private let configuration: ServerConfiguration
    private let system = System()
    private let verifier: TokenVerifier
    private let jobs: JobQueue
    let inbox: Inbox
    private var listener: CInt
    private var connections: [Int: Connection] = [:]
    private var nextID = 0
    /// Jobs handed to workers whose answers have not come back.
    private var inFlight = 0
    private var stopping = false
    /// While accept fails for lack of descriptors: when to try again.
    private var acceptPausedUntil: UInt64 = 0
    private let timeout: UInt64
    private var scratch = [UInt8](repeating: 0, count: 256 << 10)

    init(configuration: ServerConfiguration, listener: CInt, jobs: JobQueue, inbox: Inbox) {
        self.configuration = configuration
        self.listener = listener
        self.jobs = jobs
        self.inbox = inbox
        verifier = TokenVerifier(secret: configuration.secret)
        timeout = UInt64(max(0.001, configuration.readTimeout) * 1e9)
    }

    /// Runs until a stop was asked and every request in flight is answered.
    func run() {
        while !(stopping && connections.isEmpty && inFlight == 0) {
            var entries: [PollEntry] = [PollEntry(fd: inbox.wakeRead, read: true, write: false)]
            let now = System.monotonicNanoseconds()
            let accepting = !stopping && connections.count < configuration.maxConnections && now >= acceptPausedUntil
            if accepting { entries.append(PollEntry(fd: listener, read: true, write: false)) }
            var order: [Connection] = []
            order.reserveCapacity(connections.count)
            var nearest = UInt64.max
            for connection in connections.values {
                if let deadline = connection.deadline(timeout: timeout) { nearest = min(nearest, deadline) }
                guard connection.wantsRead || connection.wantsWrite else { continue }
                entries.append(PollEntry(fd: connection.fd, read: connection.wantsRead, write: connection.wantsWrite))
                order.append(connection)
            }
            if acceptPausedUntil > now { nearest = min(nearest, acceptPausedUntil) }
            let wait = nearest == .max ? -1 : Int((nearest > now ? nearest - now : 0) / 1_000_000) + 1
            let ready: [PollEntry]
            do { ready = try system.poll(entries, timeout: wait) } catch {
                continue   // EINTR is retried inside; anything else (ENOMEM) is retried here
            }

            let (answers, stop) = inbox.take()
            for (id, response) in answers {
                inFlight -= 1
                guard let connection = connections[id] else { continue }
                answer(connection, response)
            }
            if stop && !stopping { beginStop() }
            if accepting, ready[1].readable { acceptAll() }
            let first = accepting ? 2 : 1
            for (k, connection) in order.enumerated() {
                let entry = ready[first + k]
                guard connections[connection.id] != nil else { continue }
                if entry.writable || (entry.failed && connection.wantsWrite) { write(connection) }
                if connections[connection.id] != nil, entry.readable || entry.failed, connection.wantsRead { read(connection) }
            }
            expire(System.monotonicNanoseconds())
        }
        if listener >= 0 { system.close(listener); listener = -1 }
    }

    // MARK: accepting

    private func acceptAll() {
        while connections.count < configuration.maxConnections {
            let fd: CInt?
            do { fd = try system.accept(listener) } catch {
                if error.errno == .tooManyFiles || error.errno == .tooManyFilesInSystem {
                    acceptPausedUntil = System.monotonicNanoseconds() + 100_000_000   // descriptors freed by closing connections
                }
                return
            }
            guard let fd else { return }
            nextID += 1
            connections[nextID] = Connection(id: nextID, fd: fd, now: System.monotonicNanoseconds())
        }
    }

    // MARK: reading

    private func read(_ connection: Connection) {
        // Up to a few reads per wake-up, so one fast sender does not starve the others.
        for _ in 0..<4 {
            let result = scratch.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try system.receive(connection.fd, into: buffer) }
            }
            guard case .success(let received) = result else { return close(connection) }
            guard let n = received else { break }
            guard n > 0 else { return close(connection) }   // the client closed its side
            connection.lastActivity = System.monotonicNanoseconds()
            if case .lingering = connection.phase { continue }   // discarded
            connection.input.append(contentsOf: scratch[0..<n])
            if n < scratch.count { break }
        }
        advance(connection)
    }

    /// Moves a connection on with the bytes it has: parses a head, checks it,
    /// waits for its body, hands the request to a worker.
    private func advance(_ connection: Connection) {
        if case .head = connection.phase {
            guard !connection.input.isEmpty else { return }
            if stopping { return close(connection) }   // a request not started when the stop came
            let parsed = connection.input.withUnsafeBytes { bytes in
                Result { () throws(HTTPError) in try RequestHead.parse(bytes, limit: configuration.maxHeaderBytes) }
            }
            switch parsed {
            case .failure(let error):
                connection.started = System.monotonicNanoseconds()
                return refuse(connection, error)
            case .success(.incomplete):
                return
            case .success(.complete(let head, let length)):
                connection.started = System.monotonicNanoseconds()
                connection.method = head.method
                connection.logPath = Connection.logPath(head)
                do throws(HTTPError) {
                    let accepted = try accept(head, headLength: length)
                    if head.expectsContinue && connection.input.count < length + accepted.bodyLength && accepted.bodyLength > 0 {
                        let sent = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8).withUnsafeBytes { bytes in
                            (try? system.send(connection.fd, bytes)) ?? 0
                        }
                        guard sent == 25 else { return close(connection) }
                    }
                    connection.phase = .body(accepted)
                } catch {
                    // Refused before its body: the head is used up; a body, if any, is never read (`closes`).
                    connection.input.removeSubrange(0..<length)
                    return refuse(connection, error)
                }
            }
        }
        guard case .body(let accepted) = connection.phase else { return }
        let end = accepted.headLength + accepted.bodyLength
        guard connection.input.count >= end else { return }
        var request = accepted.request
        request.body = Array(connection.input[accepted.headLength..<end])
        connection.input.removeSubrange(0..<end)
        connection.keepAlive = accepted.head.keepAlive
        connection.phase = .handling
        inFlight += 1
        jobs.push(Job(connection: connection.id, route: accepted.route, request: request))
    }

    /// The checks made before a body is read, in order: the route (`404`,
    /// `405`), the query (`400`), the token (`401`) and its reach (`403`), the
    /// body's size (`413`).
    private func accept(_ head: RequestHead, headLength: Int) throws(HTTPError) -> Connection.AcceptedHead {
        do throws(HTTPError) {
            let route: Route, user: String?
            switch try Route.match(method: head.method, path: head.path) {
            case .found(let r, let u): (route, user) = (r, u)
            case .wrongMethod(let allowed):
                var e = HTTPError(405, "method_not_allowed", "\(head.path) takes \(allowed.joined(separator: ", ")), not \(head.method)")
                e.headers = [("Allow", allowed.joined(separator: ", "))]
                throw e
            case .none:
                throw HTTPError(404, "not_found", "no endpoint at \(head.path) (docs/openapi.yaml lists them)")
            }
            var token: Token? = nil
            let query = try Query(head.query, allowed: route.query)
            if route.access != .open {
                let verified = try verifier.verify(authorization: head.field("authorization"), now: Double(System.secondsSinceEpoch()))
                try route.authorize(verified, user: user)
                token = verified
            }
            let length = try head.bodyLength()
            guard length <= (route.takesBody ? configuration.maxBody : 0) else {
                var e = route.takesBody
                    ? HTTPError(413, "too_large", "the body is \(length) bytes; this server takes at most \(configuration.maxBody) (--max-body)")
                    : HTTPError(413, "too_large", "\(head.method) \(head.path) takes no body")
                e.closes = true
                throw e
            }
            return Connection.AcceptedHead(head: head, route: route, request: RouteRequest(user: user, query: query, body: [], token: token),
                                           headLength: headLength, bodyLength: length)
        } catch {
            // A refused request's body, if any, is never read: the connection ends after the answer.
            var e = error
            if (try? head.bodyLength()) ?? 1 > 0 { e.closes = true }
            throw e
        }
    }

    // MARK: answering

    private func refuse(_ connection: Connection, _ error: HTTPError) {
        answer(connection, Response(error))
    }

    private func answer(_ connection: Connection, _ response: Response) {
        connection.startAnswer(response, keepAlive: connection.keepAlive && !response.closes && !stopping)
        if response.closes { connection.input.removeAll() }
        write(connection)
    }

    private func write(_ connection: Connection) {
        guard case .writing = connection.phase else { return }
        while true {
            if connection.sent == connection.output.count {
                guard let lines = connection.lines, lines.remaining > 0 else { return finished(connection) }
                // The next piece of the learner log's lines.
                connection.output.removeAll(keepingCapacity: true)
                connection.sent = 0
                let chunk = min(lines.remaining, 256 << 10)
                connection.output = [UInt8](repeating: 0, count: chunk)
                let n = connection.output.withUnsafeMutableBytes { buffer in
                    Result { () throws(LedgerError) in try lines.read(into: buffer) }
                }
                // A log that cannot be read mid-answer: the answer cannot be completed, so the connection ends.
                guard case .success(let count) = n, count > 0 else { return close(connection) }
                connection.output.removeLast(chunk - count)
            }
            let result = connection.output.withUnsafeBytes { bytes in
                Result { () throws(SystemCallError) in try system.send(connection.fd, UnsafeRawBufferPointer(rebasing: bytes[connection.sent...])) }
            }
            guard case .success(let n) = result else { return close(connection) }
            if n == 0 { return }   // the client's buffer is full: wait until it is writable
            connection.sent += n
            connection.lastActivity = System.monotonicNanoseconds()
        }
    }

    /// The answer is sent: log it, then wait for the next request, or linger, or close.
    private func finished(_ connection: Connection) {
        connection.lines?.close()
        connection.lines = nil
        if let log = configuration.accessLog {
            let ms = Double(System.monotonicNanoseconds() - connection.started) / 1e6
            log("\(connection.method) \(connection.logPath) \(connection.status) \(connection.bytesOut) \(Self.milliseconds(ms))ms")
        }
        connection.output = []
        connection.sent = 0
        connection.method = "-"
        connection.logPath = "-"
        guard connection.keepAlive else {
            // Shut the write side, then read what the client still sends for a moment, so it sees the answer, not a reset.
            system.shutdownWrite(connection.fd)
            connection.phase = .lingering(until: System.monotonicNanoseconds() + min(timeout, 2_000_000_000))
            return
        }
        connection.phase = .head
        connection.lastActivity = System.monotonicNanoseconds()
        advance(connection)   // a request already received (pipelined)
    }

    private func close(_ connection: Connection) {
        connection.lines?.close()
        system.close(connection.fd)
        connections[connection.id] = nil
    }

    // MARK: deadlines and stopping

    private func expire(_ now: UInt64) {
        for connection in connections.values {
            if let deadline = connection.deadline(timeout: timeout), now >= deadline { close(connection) }
        }
    }

    /// SIGTERM: no new connection, idle ones closed, requests in flight finished (then their connections closed).
    private func beginStop() {
        stopping = true
        system.close(listener)
        listener = -1
        for connection in connections.values where connection.isBetweenRequests { close(connection) }
    }

    private static func milliseconds(_ ms: Double) -> String {
        let tenths = Int((ms * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
