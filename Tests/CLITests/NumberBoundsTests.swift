import Foundation
import Testing

/// Issue 31, item 2 and the first half of item 3: numbers the format defines
/// are at most 2^53 − 1 (events-v1.md, "Numbers are bounded"), refused as
/// `invalid_data` naming the member at append and at verify alike; at the
/// bound, any number of them is answered, counts held at 2^63 − 1
/// (projections.md, "No valid log stops a projection").
@Suite("numbers bounded at 2^53 - 1; sums held at 2^63 - 1", .serialized)
struct NumberBoundsTests {
    static let bound = "9007199254740991"      // 2^53 - 1
    static let beyond = "9007199254740992"     // 2^53
    static let intMax = 9_223_372_036_854_775_807

    /// An event whose member `member` is `value`, and the member's name in errors.
    static func cases(_ value: String) -> [(event: String, member: String)] {
        func line(_ type: String, _ data: String) -> String {
            #"{"id":"n-1","at":"2025-10-21T08:15:00+03:00","user":"u","type":"\#(type)","data":\#(data)}"#
        }
        return [
            (line("hints.granted", #"{"amount":\#(value),"reason":"seed"}"#), "data.amount"),
            (line("streak.freeze_granted", #"{"amount":\#(value),"reason":"grant"}"#), "data.amount"),
            (line("quiz.started", #"{"attempt":"a","quiz":"q","questions":\#(value)}"#), "data.questions"),
            (line("answer.selected", #"{"attempt":"a","question":"q","choice":0,"correct":true,"ms":\#(value)}"#), "data.ms"),
            (line("answer.selected", #"{"attempt":"a","question":"q","choice":\#(value),"correct":true}"#), "data.choice"),
            (line("puzzle.completed", #"{"puzzle":"p","encoding":"caesar","seconds":\#(value)}"#), "data.seconds"),
            (line("submission.made", #"{"content":"c","kind":"lesson","category":"math","seconds":\#(value),"answers":[]}"#), "data.seconds"),
            (line("submission.made", #"{"content":"c","kind":"lesson","category":"math","answers":[{"question":"q","choice":\#(value),"correct":true}]}"#),
             "data.answers[0].choice"),
        ]
    }

    /// `lines` as a log: `v`, `seq` and `prev` (Python's SHA-256 of the line
    /// before) written around each, as the writer lays a line out. Written
    /// apart from the library, so a line the writer would refuse can be stored.
    static func chained(_ lines: [String]) throws -> String {
        let script = #"""
        import hashlib, sys
        prev = "0" * 64
        out = []
        for seq, line in enumerate(sys.stdin.read().splitlines(), 1):
            body = line.strip()[1:-1]
            v = "2" if '"type":"streak.' in body else "1"
            sealed = '{"v":%s,"seq":%d,%s,"prev":"%s"}' % (v, seq, body, prev)
            prev = hashlib.sha256(sealed.encode()).hexdigest()
            out.append(sealed)
        sys.stdout.write("\n".join(out) + "\n")
        """#
        let result = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], stdin: Array(lines.joined(separator: "\n").utf8))
        guard result.status == 0 else { throw ServerFailure(message: "python3: \(result.stderr)") }
        return result.stdout
    }

    @Test("2^53 is invalid_data naming the member at append and at verify; 2^53 - 1 is accepted by both")
    func bounds() throws {
        let dir = try TemporaryDirectory()
        for (k, (event, member)) in Self.cases(Self.beyond).enumerated() {
            let log = dir.path("beyond-\(k).log")
            let append = try CLI.run(["append", log, "--event", event])
            #expect(append.status == 1, "\(member): \(append.stdout)")
            #expect(append.stderr.contains("invalid_data") && append.stderr.contains(member + ":"), "\(append.stderr)")
            #expect(!FileManager.default.fileExists(atPath: log) || dir.bytes("beyond-\(k).log").isEmpty, "nothing written")

            try Self.chained([event]).write(toFile: log, atomically: false, encoding: .utf8)
            let verify = try CLI.run(["verify", log])
            #expect(verify.status == 1, "\(member): \(verify.stdout)")
            let said = verify.stdout + verify.stderr
            #expect(said.contains("line 1: invalid_data") && said.contains(member), "\(said)")
        }
        for (k, (event, member)) in Self.cases(Self.bound).enumerated() {
            let log = dir.path("bound-\(k).log")
            let append = try CLI.run(["append", log, "--event", event])
            #expect(append.status == 0, "\(member): \(append.stderr)")
            #expect(try CLI.run(["verify", log]).status == 0)
            // The hand-chained line is the writer's line, byte for byte.
            #expect(String(decoding: dir.bytes("bound-\(k).log"), as: UTF8.self) == (try Self.chained([event])), "\(member)")
        }
    }

    /// 1,100 grants of 2^53 - 1, then two hints used: the true balance passes 2^63 - 1.
    static func grants(user: String = "u") -> String {
        var lines: [String] = []
        for k in 1...1_100 {
            lines.append(#"{"id":"g-\#(k)","at":"2025-10-21T08:15:00+03:00","user":"\#(user)","type":"hints.granted","data":{"amount":\#(bound),"reason":"purchase"}}"#)
        }
        lines.append(#"{"id":"s-1","at":"2025-10-21T09:00:00+03:00","user":"\#(user)","type":"quiz.started","data":{"attempt":"a","quiz":"q","questions":\#(bound),"daily":true}}"#)
        lines.append(#"{"id":"s-2","at":"2025-10-21T09:01:00+03:00","user":"\#(user)","type":"answer.selected","data":{"attempt":"a","question":"q","choice":\#(bound),"correct":true,"ms":\#(bound)}}"#)
        lines.append(#"{"id":"s-3","at":"2025-10-21T09:01:30+03:00","user":"\#(user)","type":"hint.used","data":{"attempt":"a","question":"q","hint":"reveal"}}"#)
        lines.append(#"{"id":"s-4","at":"2025-10-21T09:01:40+03:00","user":"\#(user)","type":"hint.used","data":{"attempt":"a","question":"q","hint":"fifty_fifty"}}"#)
        lines.append(#"{"id":"s-5","at":"2025-10-21T09:02:00+03:00","user":"\#(user)","type":"quiz.finished","data":{"attempt":"a"}}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("1,100 grants of 2^53 - 1: state answers with the balance at 2^63 - 1, exit 0; report and leaderboard answer")
    func grantsCLI() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("grants.log")
        #expect(try CLI.run(["append", log], input: Self.grants()).status == 0)
        let state = try CLI.run(["state", log, "--user", "u", "--day", "2025-10-21", "--json"])
        #expect(state.status == 0, "\(state.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any])
        let hints = try #require(object["hints"] as? [String: Any])
        #expect(hints["balance"] as? Int == Self.intMax, "\(hints)")
        #expect(hints["granted"] as? Int == Self.intMax)
        #expect(hints["used"] as? Int == 2)
        // 1 of 2^53 - 1 questions answered right: 0 percent, not a trap.
        #expect((object["daily_quiz"] as? [String: Any])?["score"] as? Int == 1)
        #expect(try CLI.run(["state", log, "--user", "u"]).status == 0)
        for args in [["report", log, "--format", "json"], ["leaderboard", log, "--period", "week", "--on", "2025-10-21"],
                     ["items", log], ["audit", log, "--user", "u"], ["explain", log, "--user", "u", "hints"]] {
            let run = try CLI.run(args)
            #expect(run.status == 0, "\(args[0]): \(run.stderr)")
        }
    }

    @Test("serve: 1,100 grants of 2^53 - 1 pushed; state answers 2^63 - 1 and the server stays up")
    func grantsServer() throws {
        let server = try ServerProcess()
        defer { server.terminate() }
        let token = try Tokens.one(server.secretFile, sub: "u")
        let push = try RawHTTP(port: server.port).request("POST", "/v1/learners/u/events", token: token, body: Array(Self.grants().utf8))
        #expect(push.status == 200, "\(push.text.prefix(300))")
        for _ in 0..<2 {
            let state = try RawHTTP(port: server.port).request("GET", "/v1/learners/u/state?day=2025-10-21", token: token)
            #expect(state.status == 200, "\(state.text.prefix(300))")
            #expect(state.text.contains(#""balance":9223372036854775807"#))
        }
        let admin = try Tokens.one(server.secretFile, sub: "ops", scope: "admin")
        #expect(try RawHTTP(port: server.port).request("GET", "/v1/report?from=2025-10-01&to=2025-10-31", token: admin).status == 200)
        #expect(try RawHTTP(port: server.port).request("GET", "/healthz").status == 200)
        // A push of 2^53 is refused naming the member, and the server still answers.
        let beyond = try RawHTTP(port: server.port).request("POST", "/v1/learners/u/events", token: token,
                                                            body: Array((Self.cases(Self.beyond)[0].event.replacingOccurrences(of: "n-1", with: "n-9") + "\n").utf8))
        #expect(beyond.status == 400 && beyond.kind == "invalid_data" && beyond.text.contains("data.amount"), "\(beyond.text)")
        #expect(try RawHTTP(port: server.port).request("GET", "/healthz").status == 200)
    }
}
