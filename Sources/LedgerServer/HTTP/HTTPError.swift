import Events
import SyncWire

/// A refusal the server answers with: the wire's ``Refusal`` (an HTTP
/// status, the refusal's kind, `unauthorized`, `invalid_data`,
/// `conflicting_duplicate`..., and a message naming what is wrong, sent as
/// the JSON body `{"error": KIND, "message": TEXT}` plus members of its own,
/// such as `problems`), with the header fields and the connection's end it needs.
struct HTTPError: Error, Sendable {
    /// What is sent: status, kind, message, more members.
    var refusal: Refusal
    /// Headers the refusal needs (`WWW-Authenticate`, `Allow`).
    var headers: [(name: String, value: String)] = []
    /// Whether the connection must be closed after the answer (the request's
    /// body, if any, was not read).
    var closes = false

    init(_ status: Int, _ kind: String, _ message: String) {
        refusal = Refusal(status: status, kind: kind, message: message)
    }

    /// The status code.
    var status: Int { refusal.status }
    /// The refusal's kind, as the docs and the ledger name it.
    var kind: String { refusal.kind }
    /// What is wrong, for a person.
    var message: String { refusal.message }
    /// More members of the JSON body, after `error` and `message`.
    var members: [JSONMember] {
        get { refusal.members }
        set { refusal.members = newValue }
    }

    /// `400 invalid_request`: a query or path the API does not take.
    static func badRequest(_ message: String) -> HTTPError { HTTPError(400, "invalid_request", message) }

    /// `401 unauthorized`, with the `WWW-Authenticate` challenge of RFC 6750.
    static func unauthorized(_ message: String, tokenGiven: Bool = true) -> HTTPError {
        var e = HTTPError(401, "unauthorized", message)
        let challenge = tokenGiven ? #"Bearer error="invalid_token", error_description="\#(Self.quotable(message))""# : "Bearer"
        e.headers = [("WWW-Authenticate", challenge)]
        return e
    }

    /// `403 forbidden`.
    static func forbidden(_ message: String) -> HTTPError { HTTPError(403, "forbidden", message) }

    /// The JSON body.
    var body: [UInt8] { refusal.body }

    /// The message as a quoted-string of a header (no `"` or `\`, no control characters).
    private static func quotable(_ text: String) -> String {
        String(text.unicodeScalars.map { s -> Character in
            s == "\"" || s == "\\" || s.value < 0x20 || s.value > 0x7E ? "'" : Character(s)
        })
    }
}
