import Foundation
import Testing

/// Every refusal of tokens and limits (issue 23, parts 2 and 3), each
/// against the real server process, each checking that nothing was written.
@Suite("serve: refusals", .serialized)
struct ServeSecurityTests {
    static func event(_ id: String, user: String) -> String {
        #"{"id":"\#(id)","at":"2025-10-21T08:15:00+03:00","user":"\#(user)","type":"hints.granted","data":{"amount":3,"reason":"seed"}}"#
    }

    @Test("tokens: none, another alg, a forged signature, expired, another learner's, a learner's on admin endpoints; nothing written")
    func tokens() throws {
        let server = try ServerProcess()
        defer { server.terminate() }
        let secret = server.secretFile
        let body = Array((Self.event("e-1", user: "u-1") + "\n").utf8)
        let path = "/v1/learners/u-1/events"
        // A learner log that exists, so every refusal below must leave its bytes as they are.
        let good = try Tokens.one(secret, sub: "u-1")
        #expect(try RawHTTP(port: server.port).request("POST", path, token: good, body: body).status == 200)
        let before = server.snapshot()

        let cases: [(String, String?, Int, String)] = [
            ("no token", nil, 401, "unauthorized"),
            ("alg none", try Tokens.mint(secret, [("u-1", "learner", 3600)], header: #"{"alg":"none","typ":"JWT"}"#)[0], 401, "unauthorized"),
            ("alg HS512", try Tokens.mint(secret, [("u-1", "learner", 3600)], header: #"{"alg":"HS512","typ":"JWT"}"#)[0], 401, "unauthorized"),
            ("forged signature", try Tokens.mint(secret, [("u-1", "learner", 3600)], signWith: "another-secret-of-32-bytes-at-least!!")[0], 401, "unauthorized"),
            ("expired", try Tokens.one(secret, sub: "u-1", exp: -10), 401, "unauthorized"),
            ("another learner's token", try Tokens.one(secret, sub: "u-2"), 403, "forbidden"),
            ("no scope", try Tokens.one(secret, sub: "u-1", scope: "root"), 401, "unauthorized"),
        ]
        for (name, token, status, kind) in cases {
            let client = try RawHTTP(port: server.port)
            let answer = try client.request("POST", path, token: token, body: Array((Self.event("e-\(name.count)", user: "u-1") + "\n").utf8))
            #expect(answer.status == status, "\(name): \(answer.text)")
            #expect(answer.kind == kind, "\(name)")
            if status == 401 { #expect(answer.fields["www-authenticate"]?.hasPrefix("Bearer") == true, "\(name)") }
            let read = try RawHTTP(port: server.port).request("GET", "/v1/learners/u-1/events?after=0", token: token)
            #expect(read.status == status, "\(name) (pull)")
        }
        // A learner's token on the admin endpoints; an event of another learner in a learner's push.
        #expect(try RawHTTP(port: server.port).request("GET", "/v1/report", token: good).status == 403)
        #expect(try RawHTTP(port: server.port).request("GET", "/v1/digest", token: good).status == 403)
        let other = try RawHTTP(port: server.port).request("POST", path, token: good, body: Array((Self.event("e-9", user: "u-2") + "\n").utf8))
        #expect(other.status == 403)
        #expect(other.text.contains("line 1") && other.text.contains("u-2"))
        #expect(server.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: server.learnerLog("u-2")))
        // An admin token reaches everything.
        let admin = try Tokens.one(secret, sub: "ops", scope: "admin")
        #expect(try RawHTTP(port: server.port).request("GET", "/v1/learners/u-1/head", token: admin).status == 200)
        #expect(try RawHTTP(port: server.port).request("GET", "/v1/digest", token: admin).status == 200)
    }

    @Test("invalid events are 400 naming line and member; a conflicting id 409 naming id and seq; nothing written")
    func events() throws {
        let server = try ServerProcess()
        defer { server.terminate() }
        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let path = "/v1/learners/u-1/events"
        #expect(try RawHTTP(port: server.port).request("POST", path, token: token, body: Array((Self.event("e-1", user: "u-1") + "\n").utf8)).status == 200)
        let before = server.snapshot()
        let bad = Self.event("e-2", user: "u-1") + "\n" + Self.event("e-3", user: "u-1").replacingOccurrences(of: #""amount":3"#, with: #""amount":-3"#) + "\n"
        let invalid = try RawHTTP(port: server.port).request("POST", path, token: token, body: Array(bad.utf8))
        #expect(invalid.status == 400)
        #expect(invalid.kind == "invalid_data")
        #expect(invalid.text.contains("line 2") && invalid.text.contains("data.amount"))
        let changed = Self.event("e-1", user: "u-1").replacingOccurrences(of: #""amount":3"#, with: #""amount":4"#)
        let conflict = try RawHTTP(port: server.port).request("POST", path, token: token, body: Array((Self.event("e-4", user: "u-1") + "\n" + changed + "\n").utf8))
        #expect(conflict.status == 409)
        #expect(conflict.kind == "conflicting_duplicate")
        #expect(conflict.text.contains("line 2") && conflict.text.contains(#"\"e-1\""#) && conflict.text.contains("seq 1"))
        #expect(server.snapshot() == before)
        // The same event again: appended false, the seq it has.
        let again = try RawHTTP(port: server.port).request("POST", path, token: token, body: Array((Self.event("e-1", user: "u-1") + "\n").utf8))
        #expect(again.status == 200)
        #expect(again.text.contains(#"{"id":"e-1","seq":1,"appended":false}"#))
        #expect(server.snapshot() == before)
    }

    @Test("a body over --max-body is 413 before it is read; headers over 16 KiB 431; nothing written")
    func limits() throws {
        let server = try ServerProcess(["--max-body", "1000"])
        defer { server.terminate() }
        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let before = server.snapshot()
        // The head announces 10 MB and no body byte is sent: the answer comes at once.
        let client = try RawHTTP(port: server.port, timeout: 5)
        try client.send("POST /v1/learners/u-1/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\nContent-Length: 10000000\r\n\r\n")
        let answer = try client.answer()
        #expect(answer.status == 413)
        #expect(answer.kind == "too_large")
        #expect(answer.fields["connection"] == "close")
        let headers = try RawHTTP(port: server.port, timeout: 5)
        try headers.send("GET /healthz HTTP/1.1\r\nX-Long: " + String(repeating: "a", count: 17_000) + "\r\n\r\n")
        #expect(try headers.answer().status == 431)
        #expect(server.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: server.learnerLog("u-1")))
    }
}
