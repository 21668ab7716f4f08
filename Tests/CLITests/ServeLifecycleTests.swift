import Foundation
import Ledger
import Testing

/// Slow and idle clients, the read timeout, and SIGTERM, against the real server process.
@Suite("serve: slow clients and stopping", .serialized)
struct ServeLifecycleTests {
    @Test("64 connections idle or sending one byte a second: another client is answered at once; theirs write nothing")
    func slowClients() throws {
        let server = try ServerProcess(["--threads", "4"])
        defer { server.terminate() }
        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let idle = try (0..<32).map { _ in try RawHTTP(port: server.port) }
        let slow = try (0..<32).map { _ in try RawHTTP(port: server.port) }
        let event = #"{"id":"slow","at":"2025-10-21T08:15:00+03:00","user":"u-1","type":"hints.granted","data":{"amount":3,"reason":"seed"}}"#
        let request = Array("POST /v1/learners/u-1/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\nContent-Length: \(event.utf8.count)\r\n\r\n\(event)".utf8)
        var latencies: [Double] = []
        for second in 0..<3 {
            for client in slow { try client.send([request[second]]) }
            let start = Date()
            let fast = try RawHTTP(port: server.port)
            #expect(try fast.request("GET", "/healthz").status == 200)
            let push = #"{"id":"fast-\#(second)","at":"2025-10-21T08:15:00+03:00","user":"u-1","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#
            #expect(try fast.request("POST", "/v1/learners/u-1/events", token: token, body: Array((push + "\n").utf8)).status == 200)
            latencies.append(Date().timeIntervalSince(start))
            Thread.sleep(forTimeInterval: 1)
        }
        #expect(latencies.allSatisfy { $0 < 1.0 }, "\(latencies)")
        // Only the fast client's three events are in the log: no slow request completed.
        let lines = try String(contentsOfFile: server.learnerLog("u-1"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(!lines.contains { $0.contains(#""id":"slow""#) })
        withExtendedLifetime((idle, slow)) {}
    }

    @Test("--read-timeout: a connection that sends nothing is closed; one that is answered in time stays open")
    func readTimeout() throws {
        let server = try ServerProcess(["--read-timeout", "1"])
        defer { server.terminate() }
        let silent = try RawHTTP(port: server.port, timeout: 5)
        let start = Date()
        #expect(silent.isClosed())
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.9 && waited < 4, "closed after \(waited) s")
        let keptAlive = try RawHTTP(port: server.port, timeout: 5)
        for _ in 0..<3 { #expect(try keptAlive.request("GET", "/healthz").status == 200) }
    }

    @Test("SIGTERM: stops accepting, closes idle connections, finishes the request in flight, exits 0")
    func terminate() throws {
        let server = try ServerProcess()
        let token = try Tokens.one(server.secretFile, sub: "u 1/é")
        let user = "u%201%2F%C3%A9"
        let event = #"{"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u 1/é","type":"hints.granted","data":{"amount":3,"reason":"seed"}}"# + "\n"
        let body = Array(event.utf8)
        let inFlight = try RawHTTP(port: server.port, timeout: 10)
        let idle = try RawHTTP(port: server.port, timeout: 10)
        #expect(try idle.request("GET", "/healthz").status == 200)
        // Head and half the body sent: the request is in flight when the signal comes.
        try inFlight.send(Array("POST /v1/learners/\(user)/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
                          + body[0..<20])
        Thread.sleep(forTimeInterval: 0.3)
        kill(server.process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(idle.isClosed())
        #expect(throws: (any Error).self) { _ = try RawHTTP(port: server.port, timeout: 2).request("GET", "/healthz") }
        try inFlight.send(Array(body[20...]))
        let answer = try inFlight.answer()
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.fields["connection"] == "close")
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        #expect(server.stderr.contains("stopped"))
        let verify = try CLI.run(["verify", server.directory])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("1 learner, 1 event"))
        // The path's learner id, percent-decoded, is the log's user.
        #expect(try String(contentsOfFile: server.learnerLog("u 1/é"), encoding: .utf8).contains(#""user":"u 1/é""#))
    }
}
