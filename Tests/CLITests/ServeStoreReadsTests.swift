import Foundation
import Ledger
import Testing

/// The reads over a PostgreSQL store (issue 34, item 5): `GET /v1/report`,
/// `/v1/digest`, a learner's state and checkpoint answer the bytes a
/// directory server answers for the same pushed events, and the bytes the
/// CLI prints for `export --store URI DIR`. Needs PostgreSQL
/// (`PROGRESS_LEDGER_TEST_PG`): without it, a note (outside CI) or a failure (in CI).
@Suite("serve --store: reads over PostgreSQL are the directory's bytes", .serialized)
struct ServeStoreReadsTests {
    static let origin = "school.example/progress"

    /// The demo generator's events (several learners and days, every kind of
    /// event it makes) as push lines by learner, in log order: each log
    /// line without the chain's `v`, `seq` and `prev` (the server seals them again).
    static func demoPushes(_ scratch: TemporaryDirectory) throws -> [(user: String, lines: [String])] {
        let demo = try CLI.run(["demo", "--users", "5", "--days", "9", "--seed", "34", "--out", scratch.path("demo"), "--quiet"])
        try #require(demo.status == 0, "\(demo.stderr)")
        let text = try String(contentsOfFile: scratch.path("demo/demo.log"), encoding: .utf8)
        var order: [String] = []
        var byUser: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            var event = String(line)
            for pattern in [#""v":[0-9]+,"#, #""seq":[0-9]+,"#, #","prev":("[0-9a-f]*"|null)"#] {
                event = event.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
            }
            let user = try #require(event.range(of: #""user":"[^"]*""#, options: .regularExpression)
                .map { String(event[$0].dropFirst(8).dropLast()) })
            if byUser[user] == nil { order.append(user) }
            byUser[user, default: []].append(event)
        }
        return order.map { ($0, byUser[$0] ?? []) }
    }

    /// Pushes every learner's lines to `server` in batches of up to 40 (the first batch twice: its second push appends nothing).
    static func push(_ pushes: [(user: String, lines: [String])], to server: ServerProcess, token: String) throws {
        for (user, lines) in pushes {
            var start = 0
            while start < lines.count {
                let batch = lines[start..<min(lines.count, start + 40)].map { $0 + "\n" }.joined()
                for _ in 0..<(start == 0 ? 2 : 1) {
                    let answer = try RawHTTP(port: server.port).request("POST", "/v1/learners/\(Self.escaped(user))/events", token: token, body: Array(batch.utf8))
                    try #require(answer.status == 200, "\(user): \(answer.status) \(answer.text)")
                }
                start += 40
            }
        }
    }

    /// A server over a new PostgreSQL database and one over a new ledger
    /// directory, both signing checkpoints with a new key in `keys`
    /// (`school.key`); nil without PostgreSQL.
    static func servers(_ keys: TemporaryDirectory) throws -> (pg: ServerProcess, directory: ServerProcess)? {
        #expect(try CLI.run(["keygen", Self.origin, "--out", keys.path("school.key")]).status == 0)
        let signing = ["--quiet", "--key", keys.path("school.key"), "--origin", Self.origin]
        guard let pg = try ServerProcess(store: .postgres, signing) else { return nil }
        return (pg, try ServerProcess(signing))
    }

    static func escaped(_ user: String) -> String {
        user.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? user
    }

    @Test("report, digest, every learner's state and checkpoint: the same bytes over a PostgreSQL store as over a ledger directory holding the same pushed events, and as the CLI over export --store")
    func sameBytes() throws {
        let keys = try TemporaryDirectory()
        guard let servers = try Self.servers(keys) else { return }
        let (pg, directory) = servers
        defer { pg.terminate(); directory.terminate() }
        let pushes = try Self.demoPushes(keys)
        #expect(pushes.count >= 4 && pushes.map(\.lines.count).reduce(0, +) > 200, "\(pushes.map(\.lines.count))")
        for server in [pg, directory] { try Self.push(pushes, to: server, token: try Tokens.one(server.secretFile, sub: "ops", scope: "admin")) }

        func get(_ path: String, as user: String?) throws -> (pg: HTTPAnswer, dir: HTTPAnswer) {
            let (sub, scope) = user.map { ($0, "learner") } ?? ("ops", "admin")
            let a = try RawHTTP(port: pg.port).request("GET", path, token: try Tokens.one(pg.secretFile, sub: sub, scope: scope))
            let b = try RawHTTP(port: directory.port).request("GET", path, token: try Tokens.one(directory.secretFile, sub: sub, scope: scope))
            return (a, b)
        }
        let exported = try pg.ledgerDirectory()
        // The whole store: the report (every day, and a range) and the digest.
        let days = ["", "?from=2025-10-08&to=2025-10-11", "?to=2025-10-09", "?from=2025-10-13"]
        for query in days {
            let (a, b) = try get("/v1/report" + query, as: nil)
            #expect(a.status == 200 && b.status == 200, "\(a.status) \(a.text) \(b.status)")
            #expect(a.body == b.body, "report\(query): the stores differ")
            if query.isEmpty { #expect(a.text.contains("2025-10-06") && a.text.contains("2025-10-14"), "\(a.text.prefix(300))") }   // the demo's first and last day
            var cli = ["report", exported, "--format", "json"]
            if let from = query.range(of: "from=") { cli += ["--from", String(query[from.upperBound...].prefix(10))] }
            if let to = query.range(of: "to=") { cli += ["--to", String(query[to.upperBound...].prefix(10))] }
            let printed = try CLI.run(cli)
            #expect(printed.status == 0 && Array(printed.stdout.utf8) == a.body, "report\(query): the route and `report DIR` differ")
        }
        let (digestPG, digestDir) = try get("/v1/digest", as: nil)
        #expect(digestPG.status == 200 && digestPG.body == digestDir.body, "\(digestPG.text) \(digestDir.text)")
        let verify = try CLI.run(["verify", exported])
        let digest = try #require(digestPG.text.range(of: #"[0-9a-f]{64}"#, options: .regularExpression).map { String(digestPG.text[$0]) })
        #expect(verify.status == 0 && verify.stdout.contains("digest \(digest)"), "\(verify.stdout) \(digestPG.text)")
        #expect(digestPG.text.contains(#""learners":\#(pushes.count)"#) && digestPG.text.contains(#""events":\#(pushes.map(\.lines.count).reduce(0, +))"#),
                "\(digestPG.text)")

        // Each learner (and one without a log): state (every day, and one day) and the signed checkpoint.
        for user in pushes.map(\.user) + ["nobody-yet"] {
            for path in ["state", "state?day=2025-10-10", "checkpoint"] {
                let (a, b) = try get("/v1/learners/\(Self.escaped(user))/\(path)", as: user)
                #expect(a.status == 200 && b.status == 200, "\(user) \(path): \(a.status) \(a.text) \(b.status) \(b.text)")
                #expect(a.body == b.body, "\(user) \(path): the stores differ\n\(a.text)\n\(b.text)")
            }
            guard user != "nobody-yet" else { continue }
            let checkpoint = try CLI.run(["checkpoint", exported, "--user", user, "--key", keys.path("school.key"), "--origin", "\(Self.origin)/\(user)"])
            let state = try CLI.run(["state", exported, "--user", user, "--json"])
            let (stateAnswer, _) = try get("/v1/learners/\(Self.escaped(user))/state", as: user)
            let (checkpointAnswer, _) = try get("/v1/learners/\(Self.escaped(user))/checkpoint", as: user)
            #expect(checkpoint.status == 0 && Array(checkpoint.stdout.utf8) == checkpointAnswer.body, "\(user): checkpoint \(checkpoint.stderr)")
            #expect(state.status == 0 && Array(state.stdout.utf8) == stateAnswer.body, "\(user): state \(state.stderr)")
        }
        // The scratch folders the store's reads wrote are gone.
        let tmp = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let left = (try FileManager.default.contentsOfDirectory(atPath: tmp)).filter { $0.hasPrefix("progress-ledger-read-") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("a damaged learner log: the digest and the report over PostgreSQL are the directory's 500, naming the log by its place; the checkpoint refuses it with the same problem")
    func damagedAlike() throws {
        let keys = try TemporaryDirectory()
        guard let servers = try Self.servers(keys) else { return }
        let (pg, directory) = servers
        defer { pg.terminate(); directory.terminate() }
        let pushes = Array(try Self.demoPushes(keys).prefix(2))
        for server in [pg, directory] { try Self.push(pushes, to: server, token: try Tokens.one(server.secretFile, sub: "ops", scope: "admin")) }
        // The second learner's log with one line's byte changed (its hash no longer chains), in both stores.
        let user = pushes[1].user
        let log = try Data(contentsOf: URL(fileURLWithPath: directory.learnerLog(user)))
        var bytes = Array(log)
        let third = try #require(bytes.indices.filter { bytes[$0] == 0x0A }.dropFirst(1).first)
        let digit = try #require(bytes[..<third].lastIndex { $0 >= 0x30 && $0 <= 0x39 })
        bytes[digit] = bytes[digit] == 0x39 ? 0x38 : bytes[digit] + 1
        let damaged = keys.path("damaged.log")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        directory.terminate()
        pg.terminate()
        try directory.replaceLearnerLog(user, with: damaged)
        try pg.replaceLearnerLog(user, with: damaged)
        try directory.start()
        try pg.start()
        for (path, who) in [("/v1/digest", nil), ("/v1/report", nil), ("/v1/learners/\(Self.escaped(user))/checkpoint", user)] as [(String, String?)] {
            let (sub, scope) = who.map { ($0, "learner") } ?? ("ops", "admin")
            let a = try RawHTTP(port: pg.port).request("GET", path, token: try Tokens.one(pg.secretFile, sub: sub, scope: scope))
            let b = try RawHTTP(port: directory.port).request("GET", path, token: try Tokens.one(directory.secretFile, sub: sub, scope: scope))
            // The digest lists the damaged logs (`damaged`); the report and the checkpoint stop at the line (its problem's kind).
            #expect(a.status == 500 && a.kind == (path == "/v1/digest" ? "damaged" : "broken_chain"), "\(path): \(a.status) \(a.text)")
            #expect(a.text.contains("learners/") && !a.text.contains("progress-ledger-read-"), "\(path): \(a.text)")
            if path.hasSuffix("checkpoint") {
                // The directory store refuses when opening the log's writer, which adds what it does about it.
                #expect(b.status == 500 && b.kind == a.kind && b.text.hasPrefix(String(a.text.dropLast(3))), "\(a.text)\n\(b.text)")
            } else {
                #expect(a.body == b.body, "\(path): the stores differ\n\(a.text)\n\(b.text)")
            }
        }
    }
}
