/// The request line and header fields of an HTTP/1.x request (RFC 9112),
/// parsed from the bytes a connection has received, with the server's limits.
struct RequestHead: Sendable {
    /// `GET`, `POST`...
    var method: String
    /// The request target as sent (`/v1/learners/u%2042/events?after=3`).
    var target: String
    /// The target's path, still percent-encoded.
    var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0] }
    /// The target's query, still encoded; nil when there is no `?`.
    var query: Substring? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? parts[1] : nil
    }
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
    /// skipped, as RFC 9112 allows). A head longer than `limit` bytes is
    /// refused `431` as soon as that many bytes came without its end; a
    /// malformed one `400` (`505` for another HTTP version). Lines end in
    /// CRLF or LF.
    static func parse(_ bytes: UnsafeRawBufferPointer, limit: Int) throws(HTTPError) -> Parse {
        var start = 0
        while start < bytes.count, bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        // The end: the first empty line.
        var end: Int? = nil
        var i = start
        while i < bytes.count {
            if bytes[i] == 0x0A {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { end = i + 2; break }
                if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A { end = i + 3; break }
            }
            i += 1
        }
        guard let end else {
            if bytes.count - start > limit { throw tooLarge(limit) }
            return .incomplete
        }
        guard end - start <= limit else { throw tooLarge(limit) }
        // Lines split at LF on the bytes (a String would take CRLF for one character), a CR before it dropped.
        var lines: [Substring] = []
        var lineStart = start
        for k in start..<end where bytes[k] == 0x0A {
            var lineEnd = k
            if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd == lineStart { break }
            lines.append(Substring(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]), as: UTF8.self)))
            lineStart = k + 1
        }
        guard let requestLine = lines.first else { throw malformed("the request line is missing") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy(isTokenByte),
              parts[1].first == "/", !parts[1].utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
            throw malformed("the request line must be METHOD /PATH HTTP/1.1")
        }
        let version = parts[2]
        guard version.hasPrefix("HTTP/1.") else {
            var e = HTTPError(505, "version_not_supported", "only HTTP/1.0 and HTTP/1.1 are served")
            e.closes = true
            throw e
        }
        guard let minor = Int(version.dropFirst(7)), version.count == 8 else { throw malformed("the HTTP version must be HTTP/1.0 or HTTP/1.1") }
        var fields: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw malformed("a header field has no colon") }
            let name = line[..<colon]
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { throw malformed("a header field name is empty or has a space") }
            let value = line[line.index(after: colon)...].trimmingSpaces
            guard !value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                throw malformed("the value of header \(name) holds a control character")
            }
            fields.append((name.lowercased(), String(value)))
        }
        return .complete(RequestHead(method: String(parts[0]), target: String(parts[1]), minorVersion: minor, fields: fields), length: end)
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
