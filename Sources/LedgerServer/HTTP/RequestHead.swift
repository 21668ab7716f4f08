/// The request line and header fields of an HTTP/1.x request (RFC 9112),
/// parsed from the bytes a connection has received, with the server's limits.
struct RequestHead: Sendable {
    /// `GET`, `POST`...
    var method: String
    /// The request target as sent (`/v1/learners/u%2042/events?after=3`).
    var target: String
    /// The target's path, still percent-encoded.
    var path: String
    /// The target's query, still encoded; nil when there is no `?`.
    var query: String?
    /// The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
    var minorVersion: Int
    /// Field names in lowercase, values without surrounding whitespace, in order.
    var fields: [(name: String, value: String)]

    /// The value of field `name` (lowercase); several are joined with commas.
    func field(_ name: String) -> String? {
        let values = fields.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    var keepAlive: Bool {
        let tokens = (field("connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }

    /// Whether the client waits for `100 Continue` before sending its body.
    var expectsContinue: Bool { field("expect")?.lowercased() == "100-continue" }

    /// The body's length (`Content-Length`; 0 without one). A
    /// `Transfer-Encoding` is refused (`501`): clients send a length.
    func bodyLength() throws(HTTPError) -> Int {
        if fields.contains(where: { $0.name == "transfer-encoding" }) {
            var e = HTTPError(501, "not_implemented", "Transfer-Encoding is not supported: send the body with a Content-Length")
            e.closes = true
            throw e
        }
        let values = fields.filter { $0.name == "content-length" }.flatMap { $0.value.split(separator: ",").map { $0.trimmingSpaces } }
        guard let first = values.first else { return 0 }
        guard values.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
              first.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(first) else {
            var e = HTTPError.badRequest("Content-Length must be one decimal number of bytes")
            e.closes = true
            throw e
        }
        return n
    }
}

extension RequestHead {
    /// What the received bytes hold so far.
    enum Parse {
        /// The head is not complete yet.
        case incomplete
        /// The head, and how many bytes it took (its blank line included).
        case complete(RequestHead, length: Int)
    }

    /// Parses the head at the start of `bytes` (empty lines before it are
    /// skipped, as RFC 9112 allows, and counted in `limit`). A head longer
    /// than `limit` bytes is refused `431` as soon as that many bytes came
    /// without its end; a malformed one `400` (`505` for another HTTP
    /// version), an HTTP/1.1 one without `Host`, or any with two, `400`
    /// (RFC 9112, 3.2). Lines end in CRLF or LF. `scanned`: how many bytes
    /// an earlier call found no end in (the search resumes there: a head
    /// sent a byte at a time costs no more than one sent whole).
    static func parse(_ bytes: UnsafeRawBufferPointer, limit: Int, scanned: Int = 0) throws(HTTPError) -> Parse {
        var start = 0
        while start < bytes.count, bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        // The end: the first empty line.
        var end: Int? = nil
        var i = max(start, scanned - 3)
        while i < bytes.count {
            if bytes[i] == 0x0A {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { end = i + 2; break }
                if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A { end = i + 3; break }
            }
            i += 1
        }
        guard let end else {
            if bytes.count > limit { throw tooLarge(limit) }
            return .incomplete
        }
        guard end <= limit else { throw tooLarge(limit) }
        // Lines split at LF on the bytes (a String would take CRLF for one character), a CR before it dropped.
        var lines: [UnsafeRawBufferPointer] = []
        var lineStart = start
        for k in start..<end where bytes[k] == 0x0A {
            var lineEnd = k
            if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd == lineStart { break }
            lines.append(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
            lineStart = k + 1
        }
        guard let requestLine = lines.first else { throw malformed("the request line is missing") }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte),
              parts[1].first == UInt8(ascii: "/"), !parts[1].contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
            throw malformed("the request line must be METHOD /PATH HTTP/1.1")
        }
        let version = Array(parts[2])
        guard version.count >= 7, version[0..<7].elementsEqual("HTTP/1.".utf8) else {
            var e = HTTPError(505, "version_not_supported", "only HTTP/1.0 and HTTP/1.1 are served")
            e.closes = true
            throw e
        }
        guard version.count == 8, version[7] == UInt8(ascii: "0") || version[7] == UInt8(ascii: "1") else {
            throw malformed("the HTTP version must be HTTP/1.0 or HTTP/1.1")
        }
        var fields: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw malformed("a header field has no colon") }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else { throw malformed("a header field name is empty or has a space") }
            var from = colon + 1, to = line.count
            while from < to, line[from] == 0x20 || line[from] == 0x09 { from += 1 }
            while to > from, line[to - 1] == 0x20 || line[to - 1] == 0x09 { to -= 1 }
            let value = line[from..<to]
            guard !value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                throw malformed("the value of header \(String(decoding: name, as: UTF8.self)) holds a control character")
            }
            let lowered = name.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
            fields.append((String(decoding: lowered, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        let hosts = fields.count { $0.0 == "host" }
        if hosts > 1 { throw malformed("more than one Host header field") }
        if hosts == 0, version[7] == UInt8(ascii: "1") { throw malformed("an HTTP/1.1 request needs a Host header field (RFC 9112, 3.2)") }
        let target = String(decoding: parts[1], as: UTF8.self)
        var path = target, query: String? = nil
        if let mark = parts[1].firstIndex(of: UInt8(ascii: "?")) {
            path = String(decoding: parts[1][..<mark], as: UTF8.self)
            query = String(decoding: parts[1][(mark + 1)...], as: UTF8.self)
        }
        let head = RequestHead(method: String(decoding: parts[0], as: UTF8.self), target: target, path: path, query: query,
                               minorVersion: Int(version[7] - UInt8(ascii: "0")), fields: fields)
        return .complete(head, length: end)
    }

    private static func tooLarge(_ limit: Int) -> HTTPError {
        var e = HTTPError(431, "too_large", "the request's header fields are over \(limit) bytes")
        e.closes = true
        return e
    }

    private static func malformed(_ message: String) -> HTTPError {
        var e = HTTPError.badRequest("malformed request: \(message)")
        e.closes = true
        return e
    }

    /// A byte of an RFC 9110 token (a method or a field name).
    private static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: Substring {
        let s = Substring(self)
        guard let first = s.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = s.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return s[first...last]
    }
}
