import Ledger

/// One client connection, as the reactor sees it: the bytes received and not
/// yet used, where its current request is, and the answer being sent.
/// Used by the reactor's thread only.
final class Connection {
    /// Where the connection is.
    enum Phase {
        /// Waiting for (the rest of) a request's head; idle between requests.
        case head
        /// The head is accepted; waiting for the body's bytes.
        case body(AcceptedHead)
        /// A worker is answering; nothing is read meanwhile (requests are answered in order).
        case handling
        /// Sending the answer.
        case writing
        /// The answer was sent and the write side shut: reading what the client
        /// still sends (a body not read) until it closes or `until`, so it reads
        /// the answer instead of a reset.
        case lingering(until: UInt64)
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
    var phase = Phase.head
    /// Received bytes not used yet (a request's head and body, or the next request's start).
    var input: [UInt8] = []
    /// When bytes last came in or went out (monotonic nanoseconds).
    var lastActivity: UInt64
    /// Whether the connection stays open after the answer being sent.
    var keepAlive = true

    /// The answer's bytes to send, from `sent` on.
    var output: [UInt8] = []
    var sent = 0
    /// The answer's body still to read from a learner log.
    var lines: LogSlice?

    /// The `Authorization` value verified last on this connection, and its token.
    var verified: (String, Token)?

    /// For the access line: the request, when its head was parsed.
    var method = "-"
    var logPath = "-"
    var status = 0
    var bytesOut = 0
    var started: UInt64 = 0

    init(id: Int, fd: CInt, now: UInt64) {
        self.id = id; self.fd = fd; lastActivity = now
    }

    /// Whether the reactor polls it for reading.
    var wantsRead: Bool {
        switch phase {
        case .head, .body, .lingering: true
        case .handling, .writing: false
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

    /// When it is closed if nothing happens (nil: a worker has it).
    func deadline(timeout: UInt64) -> UInt64? {
        switch phase {
        case .head, .body, .writing: lastActivity &+ timeout
        case .handling: nil
        case .lingering(let until): until
        }
    }

    /// Starts sending `response`; the access line's fields are set.
    func startAnswer(_ response: Response, keepAlive: Bool) {
        self.keepAlive = keepAlive
        status = response.status
        output = response.head(keepAlive: keepAlive)
        bytesOut = response.body.count
        switch response.body {
        case .bytes(let bytes): output += bytes; lines = nil
        case .lines(let slice): lines = slice
        }
        sent = 0
        phase = .writing
    }

    /// The request's path for the access line: the query's names kept, their values dropped.
    static func logPath(_ head: RequestHead) -> String {
        guard let query = head.query else { return head.path }
        let names = query.utf8.split(separator: UInt8(ascii: "&")).map {
            String(decoding: $0.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)[0], as: UTF8.self) + "="
        }
        return head.path + "?" + names.joined(separator: "&")
    }
}
