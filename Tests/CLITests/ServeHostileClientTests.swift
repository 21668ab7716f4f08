import Dispatch
import Foundation
import Ledger
import Testing

/// The server under hostile and old clients (issue 31, item 4), each against
/// the real server process on real sockets.
@Suite("serve: hostile clients", .serialized)
struct ServeHostileClientTests {
    /// Sends `bytes` one every `interval` seconds until the server closes the
    /// connection or `limit` seconds passed: the seconds from `start` to the close (nil: still open).
    static func trickle(_ client: RawHTTP, _ bytes: [UInt8], every interval: Double, from start: Date, limit: Double) -> Double? {
        let system = System()
        for byte in bytes {
            if (try? client.send([byte])) == nil { return Date().timeIntervalSince(start) }   // reset by the server
            let ready = try? system.poll([PollEntry(fd: client.fd, read: true, write: false)], timeout: Int(interval * 1000))
            if let entry = ready?.first, entry.readable || entry.failed, client.isClosed() { return Date().timeIntervalSince(start) }
            if Date().timeIntervalSince(start) > limit { return nil }
        }
        return nil
    }

    @Test("a head sent a byte a second is closed within --read-timeout + 1 s, while another client is answered at once")
    func byteASecondHead() throws {
        let server = try ServerProcess(["--read-timeout", "2", "--quiet"])
        defer { server.terminate() }
        let slow = try RawHTTP(port: server.port, timeout: 5)
        let start = Date()
        let head = Array("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Padding: \(String(repeating: "a", count: 40))\r\n\r\n".utf8)
        // Another client, while the slow one trickles: answered at once.
        let other = DispatchQueue(label: "other client")
        let latency = LockedValue<Double?>(nil)
        other.asyncAfter(deadline: .now() + 1.2) {
            let begun = Date()
            if let fast = try? RawHTTP(port: server.port, timeout: 5), (try? fast.request("GET", "/healthz").status) == 200 {
                latency.set(Date().timeIntervalSince(begun))
            }
        }
        let closedAfter = Self.trickle(slow, head, every: 1, from: start, limit: 6)
        other.sync {}
        let closed = try #require(closedAfter, "the byte-a-second head was still open after 6 s")
        #expect(closed >= 1.8 && closed <= 3.0, "closed after \(closed) s (--read-timeout 2)")
        let answered = try #require(latency.get(), "the other client was not answered")
        #expect(answered < 0.5, "the other client waited \(answered) s")
    }

    @Test("a body sent a byte every half second is closed once it falls behind 1 KiB a second after --read-timeout")
    func trickledBody() throws {
        let server = try ServerProcess(["--read-timeout", "2", "--quiet"])
        defer { server.terminate() }
        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let slow = try RawHTTP(port: server.port, timeout: 5)
        // 1,024 bytes announced: 2 s + 1 s to send them.
        try slow.send("POST /v1/learners/u-1/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\nContent-Length: 1024\r\n\r\n")
        let start = Date()
        let closed = try #require(Self.trickle(slow, Array(repeating: 0x20, count: 1024), every: 0.5, from: start, limit: 7),
                                  "the trickled body was still open after 7 s")
        #expect(closed >= 2.8 && closed <= 4.0, "closed after \(closed) s")
        #expect(!FileManager.default.fileExists(atPath: server.learnerLog("u-1")))
    }

    @Test("50 SIGTERMs, each right after the listening line: 50 exits with status 0")
    func sigtermRightAfterListening() throws {
        let outcomes = LockedValue<[String]>([])
        // Five at a time: about 50 process starts in a few seconds.
        for round in 0..<10 {
            DispatchQueue.concurrentPerform(iterations: 5) { k in
                let outcome: String
                do {
                    let server = try ServerProcess(["--quiet"])
                    kill(server.process.processIdentifier, SIGTERM)
                    let deadline = Date().addingTimeInterval(10)
                    while server.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                    if server.process.isRunning {
                        server.kill()
                        outcome = "round \(round) #\(k): still running 10 s after SIGTERM"
                    } else if server.process.terminationReason != .exit || server.process.terminationStatus != 0 {
                        outcome = "round \(round) #\(k): ended by \(server.process.terminationReason == .exit ? "exit" : "signal") \(server.process.terminationStatus)"
                    } else {
                        outcome = "ok"
                    }
                } catch {
                    outcome = "round \(round) #\(k): \(error)"
                }
                outcomes.update { $0.append(outcome) }
            }
        }
        let all = outcomes.get()
        #expect(all.count == 50)
        #expect(all.filter { $0 == "ok" }.count == 50, "\(all.filter { $0 != "ok" })")
    }

    @Test("HTTP/1.0 with keep-alive is told keep-alive and served again; without it, closed after the answer")
    func httpOneZero() throws {
        let server = try ServerProcess(["--quiet"])
        defer { server.terminate() }
        let kept = try RawHTTP(port: server.port, timeout: 5)
        for _ in 0..<2 {
            try kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let answer = try kept.answer()
            #expect(answer.status == 200)
            #expect(answer.fields["connection"]?.lowercased() == "keep-alive")
        }
        let plain = try RawHTTP(port: server.port, timeout: 5)
        try plain.send("GET /healthz HTTP/1.0\r\n\r\n")
        let answer = try plain.answer()
        #expect(answer.status == 200)
        #expect(answer.fields["connection"] == "close")
        #expect(plain.isClosed())
        // A refusal to an HTTP/1.0 client without keep-alive closes too.
        let refused = try RawHTTP(port: server.port, timeout: 5)
        try refused.send("GET /nowhere HTTP/1.0\r\n\r\n")
        #expect(try refused.answer().status == 404)
        #expect(refused.isClosed())
    }

    @Test("HTTP/1.1 without Host is 400; HEAD is answered with GET's headers and no body")
    func hostAndHead() throws {
        let server = try ServerProcess(["--quiet"])
        defer { server.terminate() }
        let noHost = try RawHTTP(port: server.port, timeout: 5)
        try noHost.send("GET /healthz HTTP/1.1\r\n\r\n")
        let refused = try noHost.answer()
        #expect(refused.status == 400)
        #expect(refused.kind == "invalid_request")
        #expect(refused.text.contains("Host"))

        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let event = ServeSecurityTests.event("e-1", user: "u-1") + "\n"
        #expect(try RawHTTP(port: server.port).request("POST", "/v1/learners/u-1/events", token: token, body: Array(event.utf8)).status == 200)
        let client = try RawHTTP(port: server.port, timeout: 5)
        for path in ["/healthz", "/v1/learners/u-1/events?after=0", "/v1/learners/u-1/state"] {
            let get = try client.request("GET", path, token: token)
            #expect(get.status == 200)
            try client.send("HEAD \(path) HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n")
            let head = try client.answerHead()
            #expect(head.status == 200, "\(path)")
            #expect(head.fields["content-length"] == String(get.body.count), "\(path)")
            #expect(head.fields["content-type"] == get.fields["content-type"], "\(path)")
            #expect(head.fields["ledger-head"] == get.fields["ledger-head"], "\(path)")
            // No body came: the next answer on the connection is whole and right.
            Thread.sleep(forTimeInterval: 0.1)
            #expect(client.unread == 0, "\(path)")
        }
        #expect(try client.request("GET", "/healthz").text.contains("ok"))
        // HEAD on a route that only takes POST: 405 naming POST, without a body either.
        try client.send("HEAD /v1/learners/u-1/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n")
        #expect(try client.answerHead().status == 200)   // events has a GET: HEAD takes it
        try client.send("PUT /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        let put = try client.answer()
        #expect(put.status == 405)
        #expect(put.fields["allow"] == "GET, HEAD")
    }

    @Test("the access line: UTC time and the peer; with --trust-proxy, the address the proxy forwards, from that proxy only")
    func accessLine() throws {
        let pattern = #/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (\S+) GET /healthz 200 \d+ \d+\.\dms$/#
        // The server writes a request's access line after its answer, so a
        // line may come a little after the answer (later still on a busy
        // machine): wait until `count` have come, for at most 5 s.
        func lines(_ server: ServerProcess, count: Int) -> [(time: String, client: String)] {
            func parsed() -> [(time: String, client: String)] {
                server.stderr.split(separator: "\n").compactMap { line in
                    (try? pattern.wholeMatch(in: line)).map { (String($0.output.1), String($0.output.2)) }
                }
            }
            let deadline = Date().addingTimeInterval(5)
            var seen = parsed()
            while seen.count < count, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
                seen = parsed()
            }
            return seen
        }
        let forwarded = ["X-Forwarded-For: 198.51.100.1, 203.0.113.9"]
        let trusting = try ServerProcess(["--trust-proxy", "127.0.0.1"])
        defer { trusting.terminate() }
        let before = Date()
        #expect(try RawHTTP(port: trusting.port).request("GET", "/healthz", fields: forwarded).status == 200)
        // The first line is written before the second request is sent: the order below is the requests'.
        #expect(lines(trusting, count: 1).count == 1, "\(trusting.stderr)")
        #expect(try RawHTTP(port: trusting.port).request("GET", "/healthz").status == 200)
        let seen = lines(trusting, count: 2)
        #expect(seen.map(\.client) == ["203.0.113.9", "127.0.0.1"], "\(trusting.stderr)")
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for line in seen {
            let time = try #require(format.date(from: line.time), "\(line.time)")
            #expect(abs(time.timeIntervalSince(before)) < 120, "\(line.time): the request's time, not another (a zone, an epoch)")
        }
        // A proxy at another address: the connection's peer is not it, so the field is not believed.
        let other = try ServerProcess(["--trust-proxy", "127.0.0.2"])
        defer { other.terminate() }
        #expect(try RawHTTP(port: other.port).request("GET", "/healthz", fields: forwarded).status == 200)
        #expect(lines(other, count: 1).map(\.client) == ["127.0.0.1"], "\(other.stderr)")
        let bad = try CLI.run(["serve", other.scratch.path("d"), "--listen", "127.0.0.1:0", "--secret-file", other.secretFile,
                               "--trust-proxy", "proxy.example"])
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("--trust-proxy"))
    }

    @Test("the secret is checked before DIR is made: a short one, or one others may read, leaves no DIR; --allow-readable-secret takes it")
    func secretChecks() throws {
        let scratch = try TemporaryDirectory()
        let directory = scratch.path("ledger.d")
        func serve(_ secret: String, _ extra: [String] = []) throws -> CLIResult {
            try CLI.run(["serve", directory, "--listen", "127.0.0.1:0", "--secret-file", secret] + extra)
        }
        let short = scratch.path("short.secret")
        try ServerProcess.writeSecret("too-short\n", to: short)
        let refusedShort = try serve(short)
        #expect(refusedShort.status == 1)
        #expect(refusedShort.stderr.contains(short) && refusedShort.stderr.contains("32"), "\(refusedShort.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory))

        for mode in [0o644, 0o640, 0o604] {
            let readable = scratch.path("readable-\(mode).secret")
            try ServerProcess.writeSecret("test-secret-of-at-least-32-bytes-0123456789\n", to: readable, permissions: mode)
            let refused = try serve(readable)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains(readable) && refused.stderr.contains("0" + String(mode, radix: 8)), "\(refused.stderr)")
            #expect(refused.stderr.contains("--allow-readable-secret"))
            #expect(!FileManager.default.fileExists(atPath: directory))
        }
        let readable = scratch.path("readable-\(0o644).secret")
        let server = try ServerProcess(directory: directory, secretFile: readable, ["--allow-readable-secret", "--quiet"])
        #expect(try RawHTTP(port: server.port).request("GET", "/healthz").status == 200)
        #expect(server.terminate() == 0)
    }
}

/// A value shared between threads of a test, behind a lock.
final class LockedValue<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func get() -> T { lock.withLock { value } }
    func set(_ newValue: T) { lock.withLock { value = newValue } }
    func update(_ body: (inout T) -> Void) { lock.withLock { body(&value) } }
}
