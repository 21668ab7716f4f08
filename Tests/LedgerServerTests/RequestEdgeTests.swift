import Testing
@testable import LedgerServer

/// The edges a hostile or old client reaches (issue 31, item 4), at the
/// parser's level: Host (RFC 9112, 3.2), the head's limit with empty lines
/// before it, a head parsed as it trickles in, HTTP/1.0 keep-alive, HEAD,
/// and the access line's time and client.
@Suite("Request edges")
struct RequestEdgeTests {
    static func parse(_ text: String, limit: Int = 16 << 10, scanned: Int = 0) throws(HTTPError) -> (RequestHead, Int)? {
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBytes { b in Result { () throws(HTTPError) in try RequestHead.parse(b, limit: limit, scanned: scanned) } }
        switch try result.get() {
        case .incomplete: return nil
        case .complete(let head, let length): return (head, length)
        }
    }

    static func status(_ text: String, limit: Int = 16 << 10) -> Int? {
        do { _ = try parse(text, limit: limit); return nil } catch { return error.status }
    }

    @Test("HTTP/1.1 without Host is 400, two Host fields 400 in either version; HTTP/1.0 without Host is taken")
    func host() throws {
        #expect(Self.status("GET /healthz HTTP/1.1\r\n\r\n") == 400)
        #expect(Self.status("GET /healthz HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n") == 400)
        #expect(Self.status("GET /healthz HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n") == 400)
        do { _ = try Self.parse("GET /healthz HTTP/1.1\r\n\r\n") } catch {
            #expect(error.message.contains("Host"))
            #expect(error.closes)
        }
        let (old, _) = try #require(try Self.parse("GET /healthz HTTP/1.0\r\n\r\n"))
        #expect(old.minorVersion == 0)
        let (new, _) = try #require(try Self.parse("GET /healthz HTTP/1.1\r\nHost: example\r\n\r\n"))
        #expect(new.field("host") == "example")
    }

    @Test("empty lines before a head count in its limit: a client sending only newlines is 431, not read forever")
    func emptyLines() throws {
        #expect(Self.status(String(repeating: "\r\n", count: 40), limit: 64) == 431)
        #expect(Self.status(String(repeating: "\r\n", count: 20) + "GET / HTTP/1.1\r\nHost: x\r\n\r\n", limit: 64) == 431)
        #expect(try Self.parse("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", limit: 64) != nil)
    }

    @Test("a head sent a byte at a time, the search resumed where it stopped: the same head and length as sent whole")
    func trickled() throws {
        for text in ["GET /v1/learners/u/events?after=3 HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\r\n",
                     "GET /healthz HTTP/1.0\nConnection: keep-alive\n\n", "GET /healthz HTTP/1.1\nHost: x\r\n\r\nBODY"] {
            let bytes = Array(text.utf8)
            var scanned = 0
            var found: (RequestHead, Int)? = nil
            for n in 1...bytes.count {
                let prefix = String(decoding: bytes[0..<n], as: UTF8.self)
                if let parsed = try Self.parse(prefix, scanned: scanned) { found = parsed; break }
                scanned = n
            }
            let (head, length) = try #require(found)
            let (whole, wholeLength) = try #require(try Self.parse(text))
            #expect(length == wholeLength, "\(text)")
            #expect(head.target == whole.target && head.fields.map(\.value) == whole.fields.map(\.value))
        }
    }

    @Test("answers: HTTP/1.0 kept alive is told keep-alive; HTTP/1.1 is not; a closing answer says close")
    func connectionField() {
        let response = Response.json(Array("{}".utf8))
        let old = String(decoding: response.head(keepAlive: true, minorVersion: 0), as: UTF8.self)
        #expect(old == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n")
        let new = String(decoding: response.head(keepAlive: true, minorVersion: 1), as: UTF8.self)
        #expect(new == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n")
        let closing = String(decoding: response.head(keepAlive: false, minorVersion: 0), as: UTF8.self)
        #expect(closing.hasSuffix("Content-Length: 2\r\nConnection: close\r\n\r\n"))
        let (head, _) = try! #require(try Self.parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"))
        #expect(head.keepAlive)
        let (plain, _) = try! #require(try Self.parse("GET / HTTP/1.0\r\n\r\n"))
        #expect(!plain.keepAlive)
    }

    @Test("HEAD takes a GET route; a POST-only path answers 405 without it; Allow names HEAD beside GET")
    func headMethod() throws {
        guard case .found(let route, _) = try Route.match(method: "HEAD", path: "/v1/learners/u/state") else {
            Issue.record("HEAD not matched"); return
        }
        #expect(route.method == "GET")
        guard case .wrongMethod(let allowed) = try Route.match(method: "PUT", path: "/healthz") else { Issue.record("matched"); return }
        #expect(allowed == ["GET", "HEAD"])
    }

    @Test("the access line's time: RFC 3339 in UTC with milliseconds, hand-worked")
    func timestamp() {
        #expect(AccessLine.timestamp(0) == "1970-01-01T00:00:00.000Z")
        #expect(AccessLine.timestamp(1_000_000_000_000) == "2001-09-09T01:46:40.000Z")
        // 2000-02-29 (a leap day) 23:59:59.999: 11,016 days and 86,399.999 s after the epoch.
        #expect(AccessLine.timestamp(11_016 * 86_400_000 + 86_399_999) == "2000-02-29T23:59:59.999Z")
        let line = AccessLine.format(at: 0, client: "192.0.2.7", method: "GET", path: "/healthz", status: 200, bytes: 16, nanoseconds: 1_250_000)
        #expect(line == "1970-01-01T00:00:00.000Z 192.0.2.7 GET /healthz 200 16 1.3ms")
    }

    @Test("the access line's client: the peer, or the last X-Forwarded-For address when the peer is the trusted proxy")
    func client() throws {
        let (head, _) = try #require(try Self.parse("GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 6.6.6.6, 203.0.113.9\r\n\r\n"))
        #expect(AccessLine.client(peer: "127.0.0.1", head: head, trustedProxy: nil) == "127.0.0.1")
        #expect(AccessLine.client(peer: "192.0.2.1", head: head, trustedProxy: "127.0.0.1") == "192.0.2.1")   // not the proxy
        #expect(AccessLine.client(peer: "127.0.0.1", head: head, trustedProxy: "127.0.0.1") == "203.0.113.9")
        #expect(AccessLine.client(peer: "::ffff:127.0.0.1", head: head, trustedProxy: "127.0.0.1") == "203.0.113.9")
        let (forged, _) = try #require(try Self.parse("GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 1.2.3.4 GET /admin\r\n\r\n"))
        #expect(AccessLine.client(peer: "127.0.0.1", head: forged, trustedProxy: "127.0.0.1") == "127.0.0.1")   // not an address: not logged
        let (v6, _) = try #require(try Self.parse("GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 2001:DB8:0:0::1\r\n\r\n"))
        #expect(AccessLine.client(peer: "::1", head: v6, trustedProxy: "::1") == "2001:db8::1")
    }

    @Test("a secret file others may read is refused, naming the file and its mode; 0600 and 0400 are taken")
    func secretMode() {
        #expect(ServerConfiguration.secretFileProblem(permissions: 0o600, path: "s") == nil)
        #expect(ServerConfiguration.secretFileProblem(permissions: 0o400, path: "s") == nil)
        for mode: UInt32 in [0o644, 0o640, 0o604, 0o620, 0o601] {
            let problem = ServerConfiguration.secretFileProblem(permissions: mode, path: "/etc/ledger.secret")
            #expect(problem?.contains("/etc/ledger.secret") == true)
            #expect(problem?.contains("0" + String(mode, radix: 8)) == true, "\(problem ?? "")")
        }
    }
}
