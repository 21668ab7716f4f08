import Ledger

/// Turns a connection's received bytes into requests: parses the head (with
/// its limit), makes the checks that come before a body is read, in order —
/// the route (`404`, `405`), the query (`400`), the token (`401`) and its
/// reach (`403`), the body's size (`413`), a push past the learner's rate
/// (`429`) — then waits for the body.
/// The reactor and the workers both use it (a worker reads a keep-alive
/// client's next request itself).
struct RequestIntake: Sendable {
    let configuration: ServerConfiguration
    private let verifier: TokenVerifier
    /// The learners' push rate (nil: none), the one the push route counts events in.
    private let pushRate: PushRateLimit?

    init(configuration: ServerConfiguration, pushRate: PushRateLimit? = nil) {
        self.configuration = configuration
        verifier = TokenVerifier(secret: configuration.secret)
        self.pushRate = pushRate
    }

    /// What the connection's bytes hold.
    enum Step {
        /// Not a whole request yet.
        case needMore
        /// A whole request for a worker (its bytes are used up).
        case job(Job)
        /// A request refused before its body was read (its head is used up).
        case refuse(HTTPError)
    }

    /// The next step for `connection` (in phase `.head` or `.body`).
    func next(_ connection: Connection) -> Step {
        if case .head = connection.phase {
            guard !connection.input.isEmpty else { return .needMore }
            let parsed = connection.input.withUnsafeBytes { bytes in
                Result { () throws(HTTPError) in try RequestHead.parse(bytes, limit: configuration.maxHeaderBytes, scanned: connection.headScanned) }
            }
            connection.headScanned = 0
            switch parsed {
            case .failure(let error):
                connection.began(nil, trustedProxy: nil, logging: false)
                return .refuse(error)
            case .success(.incomplete):
                connection.headScanned = connection.input.count
                return .needMore
            case .success(.complete(let head, let length)):
                connection.began(head, trustedProxy: configuration.trustedProxy, logging: configuration.accessLog != nil)
                do throws(HTTPError) {
                    let accepted = try accept(head, headLength: length, on: connection)
                    if head.expectsContinue, accepted.bodyLength > 0, connection.input.count < length + accepted.bodyLength {
                        let sent = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8).withUnsafeBytes { bytes in
                            (try? System().send(connection.fd, bytes)) ?? 0
                        }
                        if sent != 25 { return .refuse(HTTPError(500, "io", "the 100 Continue could not be sent")) }
                    }
                    connection.bodyDeadline = bodyDeadline(accepted.bodyLength)
                    connection.phase = .body(accepted)
                } catch {
                    // Refused before its body: the head is used up; a body, if any, is never read (`closes`).
                    connection.input.removeSubrange(0..<length)
                    return .refuse(error)
                }
            }
        }
        guard case .body(let accepted) = connection.phase else { return .needMore }
        let end = accepted.headLength + accepted.bodyLength
        guard connection.input.count >= end else { return .needMore }
        var request = accepted.request
        request.body = Array(connection.input[accepted.headLength..<end])
        connection.input.removeSubrange(0..<end)
        connection.keepAlive = accepted.head.keepAlive
        connection.phase = .handling
        return .job(Job(connection: connection, route: accepted.route, request: request))
    }

    /// When a body of `length` bytes, starting now, must be whole: the read
    /// timeout, plus a second for each `minimumBodyRate` bytes (a client
    /// trickling a body holds its connection no longer than that).
    private func bodyDeadline(_ length: Int) -> UInt64 {
        let seconds = configuration.readTimeout + Double(length) / Double(max(1, configuration.minimumBodyRate))
        return System.monotonicNanoseconds() &+ UInt64(min(seconds, 1e9) * 1e9)
    }

    /// The checks made before a body is read.
    private func accept(_ head: RequestHead, headLength: Int, on connection: Connection) throws(HTTPError) -> Connection.AcceptedHead {
        do throws(HTTPError) {
            let route: Route, user: String?
            switch try Route.match(method: head.method, path: head.path) {
            case .found(let r, let u):
                (route, user) = (r, u)
                connection.route = r.label
            case .wrongMethod(let allowed):
                var e = HTTPError(405, "method_not_allowed", "\(head.path) takes \(allowed.joined(separator: ", ")), not \(head.method)")
                e.headers = [("Allow", allowed.joined(separator: ", "))]
                throw e
            case .none:
                throw HTTPError(404, "not_found", "no endpoint at \(head.path) (docs/openapi.yaml lists them)")
            }
            let query = try Query(head.query, allowed: route.query)
            var token: Token? = nil
            if route.access != .open {
                let authorization = head.field("authorization")
                let verified = try verifier.verify(authorization: authorization, now: Double(System.secondsSinceEpoch()), known: connection.verified)
                if let authorization { connection.verified = (authorization, verified) }
                try route.authorize(verified, user: user)
                token = verified
            }
            let length = try head.bodyLength()
            guard length <= (route.takesBody ? configuration.maxBody : 0) else {
                throw route.takesBody
                    ? HTTPError(413, "too_large", "the body is \(length) bytes; this server takes at most \(configuration.maxBody) (--max-body)")
                    : HTTPError(413, "too_large", "\(head.method) \(head.path) takes no body")
            }
            if route.pushRated, let limit = pushRate, let user, let seconds = limit.wait(user: user) {
                throw HTTPError.rateLimited(user: user, rate: limit.eventsPerSecond, seconds: seconds)
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
}
