import Testing
@testable import LedgerServer

/// Request heads, paths and queries, parsed from bytes as a client sends them.
@Suite("Request heads")
struct RequestHeadTests {
    static func parse(_ text: String, limit: Int = 16 << 10) throws(HTTPError) -> (RequestHead, Int)? {
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBytes { b in Result { () throws(HTTPError) in try RequestHead.parse(b, limit: limit) } }
        switch try result.get() {
        case .incomplete: return nil
        case .complete(let head, let length): return (head, length)
        }
    }

    @Test("a head with CRLF or LF lines, fields in lowercase, the path and query apart")
    func parses() throws {
        let text = "POST /v1/learners/u%2F42/events?after=3&limit=10 HTTP/1.1\r\nHost: x\r\nContent-Length:  12 \r\nX-A: 1\r\nx-a: 2\r\n\r\nBODY"
        let (head, length) = try #require(try Self.parse(text))
        #expect(head.method == "POST")
        #expect(head.path == "/v1/learners/u%2F42/events")
        #expect(head.query == "after=3&limit=10")
        #expect(head.field("content-length") == "12")
        #expect(head.field("x-a") == "1, 2")
        #expect(try head.bodyLength() == 12)
        #expect(length == text.utf8.count - 4)
        #expect(head.keepAlive)
        let (old, _) = try #require(try Self.parse("GET / HTTP/1.0\n\n"))
        #expect(!old.keepAlive)
        let (closing, _) = try #require(try Self.parse("GET / HTTP/1.1\nHost: x\nConnection: close\n\n"))
        #expect(!closing.keepAlive)
    }

    @Test("an incomplete head waits; one over the limit is 431 even before its end")
    func limits() throws {
        #expect(try Self.parse("GET / HTTP/1.1\r\nHost: x\r\n") == nil)
        let long = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 100)
        #expect(throws: HTTPError.self) { try Self.parse(long, limit: 64) }
        do { _ = try Self.parse(long, limit: 64) } catch { #expect(error.status == 431) }
    }

    @Test("malformed heads are 400, other versions 505, a chunked body 501, lengths that disagree 400")
    func malformed() throws {
        for (text, status) in [("GET /\r\n\r\n", 400), ("GET / HTTP/2.0\r\n\r\n", 505), ("GET x HTTP/1.1\r\n\r\n", 400),
                               ("GET / HTTP/1.1\r\nHost: x\r\nNo colon\r\n\r\n", 400), ("GET / HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n", 400)] {
            do { _ = try Self.parse(text); Issue.record("\(text) parsed") } catch { #expect(error.status == status, "\(text)") }
        }
        let (chunked, _) = try #require(try Self.parse("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"))
        do { _ = try chunked.bodyLength(); Issue.record("chunked taken") } catch { #expect(error.status == 501) }
        let (twice, _) = try #require(try Self.parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n"))
        do { _ = try twice.bodyLength(); Issue.record("two lengths taken") } catch { #expect(error.status == 400) }
    }

    @Test("paths: a user id percent-decoded (slash, space, non-ASCII), routes and methods")
    func routes() throws {
        guard case .found(let route, let user) = try Route.match(method: "GET", path: "/v1/learners/u%2F42%20%C3%A9/head") else {
            Issue.record("no match"); return
        }
        #expect(Array(route.path.description.utf8) == Array("/v1/learners/{user}/head".utf8))
        #expect(user.map { Array($0.unicodeScalars) } == Array("u/42 \u{E9}".unicodeScalars))
        guard case .wrongMethod(let allowed) = try Route.match(method: "DELETE", path: "/v1/learners/u/events") else { Issue.record("matched"); return }
        #expect(Set(allowed) == ["GET", "HEAD", "POST"])
        guard case .none = try Route.match(method: "GET", path: "/v2/x") else { Issue.record("matched"); return }
        #expect(throws: HTTPError.self) { try Route.match(method: "GET", path: "/v1/learners/%ZZ/head") }
        #expect(throws: HTTPError.self) { try Route.match(method: "GET", path: "/v1/learners/%0A/head") }   // a control character
        #expect(throws: HTTPError.self) { try Route.match(method: "GET", path: "/v1/learners/\(String(repeating: "a", count: 129))/head") }
    }

    @Test("queries: decoded, names checked, integers and days in range")
    func queries() throws {
        let query = try Query("after=3&limit=1%30", allowed: ["after", "limit"])
        #expect(try query.integer("after", in: 0...10, default: 0) == 3)
        #expect(try query.integer("limit", in: 1...100, default: 5) == 10)
        #expect(throws: HTTPError.self) { try Query("afer=3", allowed: ["after"]) }
        #expect(throws: HTTPError.self) { try Query("after=1&after=2", allowed: ["after"]) }
        #expect(throws: HTTPError.self) { try Query("after=-1", allowed: ["after"]).integer("after", in: 0...10, default: 0) }
        #expect(throws: HTTPError.self) { try Query("day=2025-02-30", allowed: ["day"]).day("day") }
        #expect(try Query("day=2025-02-28", allowed: ["day"]).day("day")?.description == "2025-02-28")
    }

    @Test("the access line's path keeps the query's names, not its values")
    func accessPath() throws {
        let (head, _) = try #require(try Self.parse("GET /v1/learners/u/events?after=12&limit=5 HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(AccessLine.path(head) == "/v1/learners/u/events?after=&limit=")
    }

    @Test("listen addresses: IPv4, bracketed IPv6, names; a port up to 65535")
    func listen() {
        #expect(ServerConfiguration.listenAddress("127.0.0.1:0")! == ("127.0.0.1", 0))
        #expect(ServerConfiguration.listenAddress("[::1]:8080")! == ("::1", 8080))
        #expect(ServerConfiguration.listenAddress("localhost:80")! == ("localhost", 80))
        #expect(ServerConfiguration.listenAddress("::1:80") == nil)
        #expect(ServerConfiguration.listenAddress("host:65536") == nil)
        #expect(ServerConfiguration.listenAddress(":80") == nil)
    }
}
