import Events
import Foundation
import Ledger
import Simulation
import Testing

/// `serve --store postgresql://…` beyond one process (issue 34): several
/// servers on one database, SIGKILLed while devices push; the change feed.
/// Each test needs PostgreSQL (`PROGRESS_LEDGER_TEST_PG`, `.ci/run` starts a
/// cluster): without it, a note (outside CI) or a failure (in CI).
@Suite("serve --store: several servers on one database, the change feed", .serialized)
struct ServeStoreTests {
    /// What the devices pushed and what was acknowledged, by learner.
    final class Ledgerbook: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var acknowledged: [String: Set<String>] = [:]
        private(set) var refused: [String] = []
        private(set) var unavailable = 0
        func ack(_ user: String, _ ids: [String]) { lock.lock(); acknowledged[user, default: []].formUnion(ids); lock.unlock() }
        func refuse(_ text: String) { lock.lock(); refused.append(text); lock.unlock() }
        func miss() { lock.lock(); unavailable += 1; lock.unlock() }
    }

    /// Ports of the servers now running (a killed one is restarted on a new port).
    final class Ports: @unchecked Sendable {
        private let lock = NSLock()
        private var ports: [Int]
        init(_ ports: [Int]) { self.ports = ports }
        func get(_ k: Int) -> Int { lock.lock(); defer { lock.unlock() }; return ports[k % ports.count] }
        func set(_ k: Int, _ port: Int) { lock.lock(); ports[k] = port; lock.unlock() }
    }

    /// A `psql` session on `uri` that runs what is written to its input, as it comes
    /// (a transaction held open by the test), stopping at the first error.
    static func psqlSession(_ uri: String) throws -> (Process, Pipe) {
        let session = Process()
        session.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        session.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", uri]
        let input = Pipe()
        session.standardInput = input
        session.standardOutput = FileHandle.nullDevice
        try session.run()
        return (session, input)
    }

    static func line(id: String, user: String, minute: Int) -> String {
        let at = String(format: "2025-10-21T%02d:%02d:00+03:00", (minute / 60) % 24, minute % 60)
        return #"{"id":"\#(id)","at":"\#(at)","user":"\#(user)","device":"d","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"# + "\n"
    }

    /// Each learner's ids in the ledger directory `path`, in seq order (the directory verified first).
    static func idsByLearner(_ path: String, users: [String]) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        let directory = try LedgerDirectory(opening: path)
        for user in users {
            let text = (try? String(contentsOfFile: directory.learnerPath(user: user), encoding: .utf8)) ?? ""
            out[user] = text.split(separator: "\n").compactMap { line -> String? in
                guard let r = line.range(of: #""id":""#) else { return nil }
                return String(line[r.upperBound...].prefix { $0 != "\"" })
            }
        }
        return out
    }

    @Test("two servers on one database, 64 devices over 16 learners pushing through both, SIGKILLs of either: every acknowledged event once, chains intact")
    func twoServersAndKills() throws {
        guard let uri = TestPostgres.newDatabase() else { return }
        let servers = [try ServerProcess(store: .postgres, storeArguments: ["--store", uri], ["--quiet", "--threads", "16"]),
                       try ServerProcess(store: .postgres, storeArguments: ["--store", uri], ["--quiet", "--threads", "16"])]
            .compactMap { $0 }
        defer { for s in servers { s.terminate() } }
        #expect(servers.count == 2)
        let admin = try Tokens.one(servers[0].secretFile, sub: "ops", scope: "admin")
        let users = (0..<16).map { "learner-\($0)" }
        let book = Ledgerbook()
        let ports = Ports(servers.map(\.port))
        let devices = 64, pushesPerDevice = 24
        let group = DispatchGroup()
        for d in 0..<devices {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let user = users[d % users.count]
                var pending: [String] = []   // a batch not acknowledged yet: sent again (its ids make that safe)
                var n = 0
                var sent = 0
                while sent < pushesPerDevice || !pending.isEmpty {
                    if pending.isEmpty {
                        pending = (0..<(1 + n % 3)).map { "dev\(d)-\(n)-\($0)" }
                        n += 1
                        sent += 1
                    }
                    let body = pending.enumerated().map { Self.line(id: $0.element, user: user, minute: n + $0.offset) }.joined()
                    let port = ports.get(d + n)
                    guard let client = try? RawHTTP(port: port, timeout: 5),
                          let answer = try? client.request("POST", "/v1/learners/\(user)/events", token: admin, body: Array(body.utf8)) else {
                        book.miss()
                        Thread.sleep(forTimeInterval: 0.02)
                        continue
                    }
                    switch answer.status {
                    case 200:
                        book.ack(user, pending)
                        pending = []
                    case 503:
                        book.miss()
                    default:
                        book.refuse("\(answer.status) \(answer.text)")
                        pending = []
                    }
                }
            }
        }
        // SIGKILL one server or the other while the devices push, and start it again.
        let kills = 10
        var random = SplitMix64(seed: 3400)
        for _ in 0..<kills {
            Thread.sleep(forTimeInterval: 0.1 + Double(random.next() % 300) / 1000)
            let k = Int(random.next() % 2)
            servers[k].kill()
            try servers[k].start()
            ports.set(k, servers[k].port)
        }
        group.wait()
        #expect(book.refused.isEmpty, "\(book.refused.prefix(3))")
        // The store's lines as a ledger directory: every chain intact, every acknowledged id there once.
        let exported = try servers[0].ledgerDirectory()
        let verify = try CLI.run(["verify", exported])
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
        let held = try Self.idsByLearner(exported, users: users)
        var total = 0
        for user in users {
            let ids = held[user] ?? []
            total += ids.count
            #expect(Set(ids).count == ids.count, "\(user): an id twice")
            let lost = (book.acknowledged[user] ?? []).subtracting(ids)
            #expect(lost.isEmpty, "\(user) lost \(lost.count) acknowledged events")
        }
        // Every batch was acknowledged in the end (sent again after a kill): each event is there, once.
        let acknowledged = book.acknowledged.values.map(\.count).reduce(0, +)
        #expect(acknowledged == total, "acknowledged \(acknowledged), held \(total)")
        #expect(acknowledged == devices * (0..<pushesPerDevice).map { 1 + $0 % 3 }.reduce(0, +))
        print("two servers, \(kills) kills: \(acknowledged) events acknowledged, \(book.unavailable) pushes sent again")
    }

    @Test("the change feed: events from 64 concurrent pushers read back exactly once, each learner's in seq order; a transaction that commits after later-numbered ones is held back, never skipped")
    func feed() throws {
        guard let server = try ServerProcess(store: .postgres, ["--quiet", "--threads", "32"]), let uri = server.storeURI else { return }
        defer { server.terminate() }
        let admin = try Tokens.one(server.secretFile, sub: "ops", scope: "admin")
        // A transaction that takes its id now and commits last: learner "late"'s first line, inserted by hand.
        let scratch = try TemporaryDirectory()
        let lateLog = scratch.path("late.log")
        try LedgerWriter(path: lateLog).append(try LineCodec.decodeNewEvent(Array(Self.line(id: "late-1", user: "late", minute: 1).dropLast().utf8)))
        let lateLine = try Data(contentsOf: URL(fileURLWithPath: lateLog)).dropLast()
        func hex<S: Sequence<UInt8>>(_ bytes: S) -> String { TestPostgres.hex(bytes) }
        let (late, lateInput) = try Self.psqlSession(uri)
        lateInput.fileHandleForWriting.write(Data("BEGIN; INSERT INTO progress_ledger_lines (learner, seq, line) VALUES (\(hex(Array("late".utf8))), 1, \(hex(lateLine)));\n".utf8))
        Thread.sleep(forTimeInterval: 0.5)   // its xid is taken

        let users = (0..<16).map { "feed-\($0)" }
        let pushers = 64, batchesPerPusher = 40
        let book = Ledgerbook()
        let group = DispatchGroup()
        for p in 0..<pushers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let user = users[p % users.count]
                guard let client = try? RawHTTP(port: server.port, timeout: 30) else { book.refuse("connect"); return }
                for b in 0..<batchesPerPusher {
                    let ids = (0..<(1 + (p + b) % 7)).map { "p\(p)-\(b)-\($0)" }
                    let body = ids.map { Self.line(id: $0, user: user, minute: b) }.joined()
                    guard let answer = try? client.request("POST", "/v1/learners/\(user)/events", token: admin, body: Array(body.utf8)),
                          answer.status == 200 else { book.refuse("push \(p)/\(b)"); return }
                    book.ack(user, ids)
                }
            }
        }
        // Read the feed while they push: nothing after the open transaction comes out.
        func page(after cursor: String, wait: Int = 0) throws -> (lines: [(user: String, seq: Int, id: String)], next: String) {
            let answer = try RawHTTP(port: server.port, timeout: 30).request("GET", "/v1/events?after=\(cursor)&limit=5000&wait=\(wait)", token: admin)
            guard answer.status == 200, let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
                  let events = object["events"] as? [[String: Any]], let next = object["next"] as? String else {
                throw ServerFailure(message: "feed: \(answer.status) \(answer.text)")
            }
            return (events.map { ($0["user"] as? String ?? "", $0["seq"] as? Int ?? 0, ($0["line"] as? [String: Any])?["id"] as? String ?? "") }, next)
        }
        group.wait()
        #expect(book.refused.isEmpty, "\(book.refused.prefix(3))")
        let held = try page(after: "0.0")
        #expect(held.lines.isEmpty, "the feed handed out \(held.lines.count) lines committed after an open, earlier transaction")
        lateInput.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
        try lateInput.fileHandleForWriting.close()
        late.waitUntilExit()
        #expect(late.terminationStatus == 0)

        var cursor = "0.0"
        var read: [(user: String, seq: Int, id: String)] = []
        while true {
            let p = try page(after: cursor)
            if p.lines.isEmpty { break }
            read += p.lines
            cursor = p.next
        }
        let pushed = book.acknowledged.values.map(\.count).reduce(0, +)
        #expect(read.count == pushed + 1, "read \(read.count), pushed \(pushed) + 1")
        #expect(read.first?.id == "late-1", "the late transaction's line comes first (its id is the oldest)")
        #expect(Set(read.map(\.id)).count == read.count, "a line read twice")
        var last: [String: Int] = [:]
        for line in read {
            #expect(line.seq == (last[line.user] ?? 0) + 1, "\(line.user): seq \(line.seq) after \(last[line.user] ?? 0)")
            last[line.user] = line.seq
        }
        for user in users { #expect(Set(read.filter { $0.user == user }.map(\.id)) == book.acknowledged[user] ?? []) }
        // wait=: a page that would be empty is answered once a push commits.
        let started = Date()
        let pusher = Thread {
            Thread.sleep(forTimeInterval: 0.5)
            _ = try? RawHTTP(port: server.port).request("POST", "/v1/learners/feed-0/events", token: admin,
                                                        body: Array(Self.line(id: "after-wait", user: "feed-0", minute: 9).utf8))
        }
        pusher.start()
        let woken = try page(after: cursor, wait: 60)
        #expect(woken.lines.map(\.id) == ["after-wait"])
        #expect(Date().timeIntervalSince(started) < 30, "answered when the wait ran out, not when the push committed")
        print("feed: \(read.count) lines from \(pushers) pushers read once each")
    }

    @Test("the change feed's wait: a line held back behind an older transaction is answered once that transaction ends, though its end signals nothing")
    func feedWaitsOutAnOlderTransaction() throws {
        guard let server = try ServerProcess(store: .postgres, ["--quiet", "--threads", "8"]), let uri = server.storeURI else { return }
        defer { server.terminate() }
        let admin = try Tokens.one(server.secretFile, sub: "ops", scope: "admin")
        func feed(after cursor: String, wait: Int) throws -> (ids: [String], next: String) {
            let answer = try RawHTTP(port: server.port, timeout: 90).request("GET", "/v1/events?after=\(cursor)&wait=\(wait)", token: admin)
            guard answer.status == 200, let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
                  let events = object["events"] as? [[String: Any]], let next = object["next"] as? String else {
                throw ServerFailure(message: "feed: \(answer.status) \(answer.text)")
            }
            return (events.map { ($0["line"] as? [String: Any])?["id"] as? String ?? "" }, next)
        }
        func push(_ id: String) throws {
            let answer = try RawHTTP(port: server.port).request("POST", "/v1/learners/held/events", token: admin,
                                                                body: Array(Self.line(id: id, user: "held", minute: 1).utf8))
            #expect(answer.status == 200, "\(answer.text)")
        }
        try push("first")
        let start = try feed(after: "0.0", wait: 0)
        #expect(start.ids == ["first"])
        // A session takes a transaction id and stays open: a push after it commits, but is held back.
        let (older, input) = try Self.psqlSession(uri)
        input.fileHandleForWriting.write(Data("BEGIN; SELECT pg_current_xact_id();\n".utf8))
        Thread.sleep(forTimeInterval: 1)   // its xid is taken
        try push("behind")
        #expect(try feed(after: start.next, wait: 0).ids.isEmpty, "a line handed out while an older transaction is open")
        // The session commits 2 s into the wait, with no push and no notification after it.
        let ender = Thread {
            Thread.sleep(forTimeInterval: 2)
            input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
            try? input.fileHandleForWriting.close()
        }
        ender.start()
        let started = Date()
        let woken = try feed(after: start.next, wait: 60)
        let waited = Date().timeIntervalSince(started)
        older.waitUntilExit()
        #expect(woken.ids == ["behind"])
        #expect(waited < 30, "answered after \(waited) s: when the wait ran out, not when the older transaction ended")
    }

    @Test("group commit: 64 learners' single-event pushes at once share transactions, no two lines of one transaction share a seq, every acknowledged event once")
    func groupCommit() throws {
        guard let server = try ServerProcess(store: .postgres, ["--quiet", "--threads", "64"]), let uri = server.storeURI else { return }
        defer { server.terminate() }
        let admin = try Tokens.one(server.secretFile, sub: "ops", scope: "admin")
        let users = (0..<64).map { "group-\($0)" }
        let pushes = 30
        let book = Ledgerbook()
        let group = DispatchGroup()
        for user in users {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let client = try? RawHTTP(port: server.port, timeout: 30) else { book.refuse("connect"); return }
                for n in 0..<pushes {
                    let id = "\(user)-\(n)"
                    guard let answer = try? client.request("POST", "/v1/learners/\(user)/events", token: admin,
                                                           body: Array(Self.line(id: id, user: user, minute: n).utf8)),
                          answer.status == 200 else { book.refuse("push \(user)/\(n)"); return }
                    book.ack(user, [id])
                }
            }
        }
        group.wait()
        #expect(book.refused.isEmpty, "\(book.refused.prefix(3))")
        // Grouped: some transaction holds several learners' lines (64 pushers, 8 committers).
        let shared = try TestPostgres.psql(uri, "SELECT count(*) FROM (SELECT tx FROM progress_ledger_lines GROUP BY tx HAVING count(DISTINCT learner) > 1) t")
        #expect((Int(shared.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0, "no transaction held two learners' lines")
        // The feed's order (tx, seq) has no ties.
        let ties = try TestPostgres.psql(uri, "SELECT count(*) FROM (SELECT tx, seq FROM progress_ledger_lines GROUP BY tx, seq HAVING count(*) > 1) t")
        #expect(ties.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "lines of one transaction share a seq")
        // Every acknowledged event once, chains intact.
        let exported = try server.ledgerDirectory()
        let verify = try CLI.run(["verify", exported])
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
        let held = try Self.idsByLearner(exported, users: users)
        for user in users {
            #expect(held[user] == (0..<pushes).map { "\(user)-\($0)" }, "\(user): \(held[user]?.count ?? 0) lines")
        }
        print("group commit: \(shared.trimmingCharacters(in: .whitespacesAndNewlines)) transactions of several learners")
    }

    @Test("the directory store answers the change feed 501 not_on_this_store; a PostgreSQL store answers the report (ServeStoreReadsTests: the same bytes)")
    func notOnThisStore() throws {
        let server = try ServerProcess(["--quiet"])
        defer { server.terminate() }
        let admin = try Tokens.one(server.secretFile, sub: "ops", scope: "admin")
        let answer = try RawHTTP(port: server.port).request("GET", "/v1/events", token: admin)
        #expect(answer.status == 501)
        #expect(answer.kind == "not_on_this_store")
        guard let pg = try ServerProcess(store: .postgres, ["--quiet"]) else { return }
        defer { pg.terminate() }
        let report = try RawHTTP(port: pg.port).request("GET", "/v1/report", token: try Tokens.one(pg.secretFile, sub: "ops", scope: "admin"))
        #expect(report.status == 200, "\(report.status) \(report.text)")
    }

    @Test("a store that cannot be reached: serve and export --store fail naming it, with the URI's password never printed")
    func passwordNeverPrinted() throws {
        let scratch = try TemporaryDirectory()
        let secret = scratch.path("secret")
        try Data("test-secret-of-at-least-32-bytes-0123456789\n".utf8).write(to: URL(fileURLWithPath: secret))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)   // serve refuses a readable secret
        // Port 1 on loopback: nothing listens there.
        for uri in ["postgresql://ledger:Sw0rdf1sh@127.0.0.1:1/ledger?connect_timeout=2",
                    "postgresql://ledger@127.0.0.1:1/ledger?password=Sw0rdf1sh&connect_timeout=2"] {
            let serve = try CLI.run(["serve", "--store", uri, "--listen", "127.0.0.1:0", "--secret-file", secret])
            #expect(serve.status == 1)
            #expect(serve.stderr.contains("127.0.0.1"), "\(serve.stderr)")
            #expect(!serve.stderr.contains("Sw0rdf1sh") && !serve.stdout.contains("Sw0rdf1sh"), "\(serve.stderr)")
            let export = try CLI.run(["export", "--store", uri, scratch.path("out")])
            #expect(export.status == 1)
            #expect(!export.stderr.contains("Sw0rdf1sh"), "\(export.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("out")))
        }
        // DIR and --store together: a usage error.
        let both = try CLI.run(["serve", scratch.path("d"), "--store", "postgresql://x@127.0.0.1:1/x", "--listen", "127.0.0.1:0", "--secret-file", secret])
        #expect(both.status == 64, "\(both.stderr)")
    }
}
