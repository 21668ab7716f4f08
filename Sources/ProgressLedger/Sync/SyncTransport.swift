/// An HTTP request the sync client makes (the server's API: docs/openapi.yaml).
public struct SyncRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The whole URL, e.g. `https://sync.example/v1/learners/u-42/events?after=7`.
    public var url: String
    /// Header fields (`Authorization`, `Content-Type`).
    public var headers: [String: String]   // not a format string: HTTP header fields
    /// The body (empty for a `GET`).
    public var body: [UInt8]

    /// Makes a request.
    public init(method: String, url: String, headers: [String: String] = [:], body: [UInt8] = []) {   // not a format string: HTTP header fields
        self.method = method; self.url = url; self.headers = headers; self.body = body
    }
}

/// The server's answer, as a transport got it.
public struct SyncResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// Header fields, names in lowercase (`ledger-head`).
    public var headers: [String: String]   // not a format string: HTTP header fields
    /// The body, whole.
    public var body: [UInt8]

    /// Makes a response; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {   // not a format string: HTTP header fields
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }
}

/// How the sync client reaches the server: a function from request to
/// response. It throws when the request may not have arrived or its answer
/// was lost (no connection, a timeout, a reset): the client then tries
/// again, which ids make safe. `URLSession` is the default
/// (``SyncClient/urlSession(_:)``); an app can pass its own HTTP stack.
public typealias SyncTransport = @Sendable (SyncRequest) async throws -> SyncResponse
