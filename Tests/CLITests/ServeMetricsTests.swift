import Events
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Ledger
import ProgressLedger
import Testing

/// `GET /metrics` over the server's real sockets: counters move by exactly
/// what was sent, and the scrape is valid Prometheus text (promtool).
@Suite("serve: metrics and the push rate limit", .serialized)
struct ServeMetricsTests {
    /// A scrape parsed apart from the server's writer: `name{a="x",b="y"}` (labels sorted) to its value.
    struct Scrape {
        var samples: [String: Double] = [:]
        var types: [String: String] = [:]
        let text: String

        init(_ text: String) throws {
            self.text = text
            for line in text.split(separator: "\n") {
                if line.hasPrefix("# TYPE ") {
                    let parts = line.split(separator: " ")
                    types[String(parts[2])] = String(parts[3])
                    continue
                }
                if line.hasPrefix("#") { continue }
                guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...].replacingOccurrences(of: "+Inf", with: "inf")) else {
                    throw ServerFailure(message: "not a sample line: \(line)")
                }
                let series = String(line[..<space])
                samples[Self.key(series)] = value
            }
        }

        /// The series with its labels sorted by name.
        static func key(_ series: String) -> String {
            guard let brace = series.firstIndex(of: "{") else { return series }
            let name = series[..<brace]
            let body = series[series.index(after: brace)..<series.index(before: series.endIndex)]
            let labels = body.components(separatedBy: "\",").map { $0.hasSuffix("\"") ? $0 : $0 + "\"" }.filter { $0 != "\"" }.sorted()
            return name + "{" + labels.joined(separator: ",") + "}"
        }

        func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
            let key = labels.isEmpty ? name : name + "{" + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",") + "}"
            return samples[key] ?? 0
        }
    }

    static func line(_ id: String, user: String, minute: Int = 0) -> String {
        #"{"id":"\#(id)","at":"2025-10-21T\#(String(format: "%02d:%02d", 8 + minute / 60, minute % 60)):00+03:00","user":"\#(user)","type":"hints.granted","data":{"amount":1,"reason":"reward"}}"#
    }

    static func body(_ ids: [String], user: String) -> [UInt8] {
        Array(ids.enumerated().map { line($0.element, user: user, minute: $0.offset % 60) + "\n" }.joined().utf8)
    }

    /// Runs `promtool check metrics` on `text` when promtool is installed (CI, where CI is set, must have it).
    static func promtool(_ text: String) throws {
        let path = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "CI must install promtool (Debian's prometheus package)")
            return
        }
        let result = try CLI.runTool(URL(fileURLWithPath: path), ["check", "metrics"], stdin: Array(text.utf8))
        #expect(result.status == 0, "promtool check metrics: \(result.stdout) \(result.stderr)\n\(text)")
    }

    @Test("a scrape after pushes, pulls and refusals: each counter moved by what was sent; promtool accepts it; --metrics-listen needs no token")
    func countersMoveByWhatWasSent() throws {
        let server = try ServerProcess(["--metrics-listen", "127.0.0.1:0", "--quiet"])
        defer { server.terminate() }
        let tokens = try Tokens.mint(server.secretFile, [("u-1", "learner", 3600), ("u-2", "learner", 3600), ("ops", "admin", 3600)])
        let (u1, u2, admin) = (tokens[0], tokens[1], tokens[2])
        let http = try RawHTTP(port: server.port)

        // Without a token on the API's address: refused; with an admin token: the scrape.
        #expect(try http.request("GET", "/metrics").status == 401)
        #expect(try http.request("GET", "/metrics", token: u1).status == 403)
        let first = try http.request("GET", "/metrics", token: admin)
        #expect(first.status == 200)
        #expect(first.fields["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let before = try Scrape(first.text)

        let push = "/v1/learners/u-1/events", push2 = "/v1/learners/u-2/events"
        #expect(try http.request("POST", push, token: u1, body: Self.body(["a1", "a2", "a3"], user: "u-1")).status == 200)
        #expect(try http.request("POST", push, token: u1, body: Self.body(["a1", "a2", "a3"], user: "u-1")).status == 200)   // all already there
        #expect(try http.request("POST", push2, token: u2, body: Self.body(["b1", "b2"], user: "u-2")).status == 200)
        #expect(try http.request("GET", push + "?after=0", token: u1).status == 200)
        #expect(try http.request("GET", push + "?after=2", token: u1).status == 200)
        // Refusals: no token, another learner's token, an invalid event (each on a connection of its own:
        // a refusal before the body is read ends its connection), no such route.
        #expect(try RawHTTP(port: server.port).request("POST", push, body: Self.body(["x"], user: "u-1")).status == 401)
        #expect(try RawHTTP(port: server.port).request("POST", push2, token: u1, body: Self.body(["x"], user: "u-2")).status == 403)
        #expect(try RawHTTP(port: server.port).request("POST", push, token: u1, body: Array("{\"id\":\"bad\"}\n".utf8)).status == 400)
        #expect(try http.request("GET", "/nowhere").status == 404)

        let second = try http.request("GET", "/metrics", token: admin)
        let after = try Scrape(second.text)
        func delta(_ name: String, _ labels: [String: String] = [:]) -> Double { after.value(name, labels) - before.value(name, labels) }
        let requests = "progress_ledger_http_requests_total"
        let events = "/v1/learners/{user}/events"
        #expect(delta(requests, ["method": "POST", "route": events, "status": "200"]) == 3)
        #expect(delta(requests, ["method": "GET", "route": events, "status": "200"]) == 2)
        #expect(delta(requests, ["method": "POST", "route": events, "status": "401"]) == 1)
        #expect(delta(requests, ["method": "POST", "route": events, "status": "403"]) == 1)
        #expect(delta(requests, ["method": "POST", "route": events, "status": "400"]) == 1)
        #expect(delta(requests, ["method": "none", "route": "none", "status": "404"]) == 1)
        #expect(delta(requests, ["method": "GET", "route": "/metrics", "status": "200"]) == 1)   // the first scrape
        #expect(before.value(requests, ["method": "GET", "route": "/metrics", "status": "401"]) == 1)
        #expect(before.value(requests, ["method": "GET", "route": "/metrics", "status": "403"]) == 1)
        #expect(delta("progress_ledger_http_request_duration_seconds_count", ["method": "POST", "route": events]) == 6)
        #expect(delta("progress_ledger_http_request_duration_seconds_bucket", ["method": "POST", "route": events, "le": "+Inf"]) == 6)
        #expect(delta("progress_ledger_appends_total") == 3)
        #expect(delta("progress_ledger_events_appended_total") == 5)
        #expect(delta("progress_ledger_events_already_present_total") == 3)
        #expect(delta("progress_ledger_fsync_duration_seconds_count") == 2)   // the repeat wrote nothing
        #expect(after.value("progress_ledger_fsync_duration_seconds_sum") > 0)
        #expect(delta("progress_ledger_refusals_total", ["kind": "unauthorized", "status": "401"]) == 1)
        #expect(delta("progress_ledger_refusals_total", ["kind": "forbidden", "status": "403"]) == 1)
        #expect(delta("progress_ledger_refusals_total", ["kind": "not_found", "status": "404"]) == 1)
        #expect(after.value("progress_ledger_open_learner_logs") == 2)
        #expect(after.value("progress_ledger_open_connections") >= 1)
        #expect(delta("progress_ledger_connections_accepted_total") == 3)   // the three one-off clients
        let version = try CLI.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(after.text.contains("progress_ledger_build_info{version=\"\(version.replacingOccurrences(of: "progress-ledger ", with: ""))\"} 1"),
                "\(version)\n\(after.text)")
        #expect(after.types["progress_ledger_http_request_duration_seconds"] == "histogram")
        #expect(after.types["progress_ledger_http_requests_total"] == "counter")
        // The buckets are cumulative.
        let buckets = after.samples.filter { $0.key.hasPrefix("progress_ledger_http_request_duration_seconds_bucket{") && $0.key.contains("route=\"/v1/learners/{user}/events\"") && $0.key.contains("method=\"POST\"") }
        let ordered = buckets.map { (le: Double($0.key.components(separatedBy: "le=\"")[1].prefix { $0 != "\"" }.replacingOccurrences(of: "+Inf", with: "inf")) ?? 0, n: $0.value) }.sorted { $0.le < $1.le }
        #expect(ordered.count == 14)
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.n <= $1.n })
        try Self.promtool(second.text)

        // The private address: the same scrape without a token, and nothing else.
        let port = try #require(server.metricsPort)
        let open = try RawHTTP(port: port).request("GET", "/metrics")
        #expect(open.status == 200)
        let opened = try Scrape(open.text)
        #expect(opened.value("progress_ledger_events_appended_total") == after.value("progress_ledger_events_appended_total"))
        #expect(try RawHTTP(port: port).request("GET", "/v1/learners/u-1/events?after=0").status == 404)
        #expect(try RawHTTP(port: port).request("POST", "/metrics").status == 405)
        try Self.promtool(open.text)
    }

    @Test("--max-push-rate: past a second's worth ahead, 429 rate_limited with Retry-After, nothing written; other learners unaffected")
    func pushRateLimit() throws {
        let server = try ServerProcess(["--max-push-rate", "10", "--quiet"])
        defer { server.terminate() }
        let tokens = try Tokens.mint(server.secretFile, [("u-1", "learner", 3600), ("u-2", "learner", 3600), ("ops", "admin", 3600)])
        let http = try RawHTTP(port: server.port)
        let push = "/v1/learners/u-1/events"
        // 10 events a second, a second's worth of tolerance: 20 at once pass (the debt was 0 when they came), then 2 s of debt.
        #expect(try http.request("POST", push, token: tokens[0], body: Self.body((1...20).map { "a\($0)" }, user: "u-1")).status == 200)
        let log = server.snapshot()
        let refused = try http.request("POST", push, token: tokens[0], body: Self.body(["a21"], user: "u-1"))
        #expect(refused.status == 429)
        #expect(refused.kind == "rate_limited")
        #expect(refused.fields["retry-after"] == "1" || refused.fields["retry-after"] == "2", "\(refused.fields)")
        #expect(refused.fields["connection"] == "close")   // refused from its head: its body was not read
        #expect(server.snapshot() == log)
        // Another learner is not held up.
        let again = try RawHTTP(port: server.port)
        #expect(try again.request("POST", "/v1/learners/u-2/events", token: tokens[1], body: Self.body(["b1"], user: "u-2")).status == 200)
        // After the Retry-After, the push is taken.
        Thread.sleep(forTimeInterval: Double(refused.fields["retry-after"] ?? "2") ?? 2)
        #expect(try again.request("POST", push, token: tokens[0], body: Self.body(["a21"], user: "u-1")).status == 200)
        let scrape = try Scrape(try again.request("GET", "/metrics", token: tokens[2]).text)
        #expect(scrape.value("progress_ledger_refusals_total", ["kind": "rate_limited", "status": "429"]) == 1)
    }

    @Test("--max-push-rate is judged on the head: a limited learner's 429 comes though its body is never sent, and no body is read")
    func pushRateBeforeBody() throws {
        let server = try ServerProcess(["--max-push-rate", "10", "--read-timeout", "60", "--quiet"])
        defer { server.terminate() }
        let tokens = try Tokens.mint(server.secretFile, [("u-1", "learner", 3600)])
        let push = "/v1/learners/u-1/events"
        #expect(try RawHTTP(port: server.port).request("POST", push, token: tokens[0], body: Self.body((1...100).map { "a\($0)" }, user: "u-1")).status == 200)
        let log = server.snapshot()
        let head = "POST \(push) HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(tokens[0])\r\nContent-Type: application/x-ndjson\r\n"
        // A head announcing 100,000 bytes, and none of them: the answer comes at once (a server waiting
        // for the body would answer after its 60 s read timeout; RawHTTP gives up after 5).
        let silent = try RawHTTP(port: server.port, timeout: 5)
        try silent.send(head + "Content-Length: 100000\r\n\r\n")
        let refused = try silent.answer()
        #expect(refused.status == 429)
        #expect(refused.kind == "rate_limited")
        #expect(Int(refused.fields["retry-after"] ?? "") ?? 0 >= 1, "\(refused.fields)")
        #expect(refused.fields["connection"] == "close")
        // The body sent after the answer is never read into the log.
        try? silent.send(Self.body(["late"], user: "u-1"))
        // With Expect: 100-continue, the refusal comes instead of the 100 Continue: the client sends no body at all.
        let asking = try RawHTTP(port: server.port, timeout: 5)
        try asking.send(head + "Expect: 100-continue\r\nContent-Length: 300\r\n\r\n")
        let first = try asking.answer()
        #expect(first.status == 429 && first.kind == "rate_limited")
        #expect(server.snapshot() == log)
    }

    @Test("SyncClient honours 429: it waits the Retry-After and sends again, and the whole outbox arrives")
    func syncClientWaitsForTheRateLimit() async throws {
        let server = try ServerProcess(["--max-push-rate", "2", "--quiet"])
        defer { server.terminate() }
        let scratch = try TemporaryDirectory()
        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let writer = try LedgerWriter(path: scratch.path("outbox"))
        for k in 1...30 { try writer.append(try LineCodec.decodeNewEvent(Array(Self.line("e\(k)", user: "u-1", minute: k).utf8))) }
        writer.close()
        var client = SyncClient(server: server.url, user: "u-1", outbox: scratch.path("outbox"), replica: scratch.path("replica"),
                                token: { token }, transport: SyncClient.urlSession(URLSession(configuration: .ephemeral)),
                                retry: RetryPolicy(attempts: 3, delay: 0))
        client.eventsPerPush = 10
        // 2 a second with a second's tolerance: a push of 10 runs up 5 s of debt, so the next one
        // is refused with Retry-After 4 unless it comes 4 s later (it never does: no timing race).
        let report = try await client.sync()
        #expect(report.appended == 30)
        #expect(report.pulled == 30)
        #expect(report.retries >= 1)
        #expect(report.rateLimitedSeconds >= 1)
        // A Retry-After longer than the client takes stops the sync, named.
        var impatient = client
        impatient.maxRetryAfter = 0.5
        let more = try LedgerWriter(path: scratch.path("outbox"))
        for k in 31...60 { try more.append(try LineCodec.decodeNewEvent(Array(Self.line("e\(k)", user: "u-1", minute: k).utf8))) }
        more.close()
        let error = await #expect(throws: SyncError.self) { _ = try await impatient.sync() }
        #expect(error?.status == 429 && error?.serverKind == "rate_limited", "\(String(describing: error))")
    }
}
