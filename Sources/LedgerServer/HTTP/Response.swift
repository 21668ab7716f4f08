import Events
import Ledger
import SyncWire

/// An answer: status, header fields and a body of bytes or of a log's lines
/// (sent from the file piece by piece: a pull's memory does not grow with it).
struct Response: Sendable {
    /// What the body is.
    enum Body: Sendable {
        /// Bytes held in memory.
        case bytes([UInt8])
        /// Lines of a learner log, read from the file as they are sent.
        case lines(LogSlice)

        var count: Int {
            switch self {
            case .bytes(let b): b.count
            case .lines(let slice): slice.length
            }
        }
    }

    /// The status code.
    var status: Int
    /// Header fields besides `Content-Length` and `Connection`.
    var fields: [(name: String, value: String)]
    /// The body.
    var body: Body
    /// Whether the connection is closed after it.
    var closes = false
    /// The refusal's kind, for the metrics (nil: not a refusal).
    var refusal: String?

    init(status: Int, fields: [(name: String, value: String)], body: Body) {
        self.status = status; self.fields = fields; self.body = body
    }

    /// `200` (or `status`) with a JSON body.
    static func json(_ bytes: [UInt8], status: Int = 200) -> Response {
        Response(status: status, fields: [("Content-Type", MediaType.json)], body: .bytes(bytes))
    }

    /// The answer to a refusal: its status, headers and JSON body.
    init(_ error: HTTPError) {
        self.init(status: error.status, fields: [("Content-Type", MediaType.json)] + error.headers, body: .bytes(error.body))
        closes = error.closes
        refusal = error.kind
    }

    /// The status line and header fields, ending in the blank line. An
    /// HTTP/1.0 client (`minorVersion` 0) kept alive is told so: it would
    /// otherwise wait for the connection's end (RFC 9112, appendix C.2.2).
    func head(keepAlive: Bool, minorVersion: Int = 1) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.count)\r\n"
        if !keepAlive {
            text += "Connection: close\r\n"
        } else if minorVersion == 0 {
            text += "Connection: keep-alive\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    /// The reason phrase of the statuses this server sends.
    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
