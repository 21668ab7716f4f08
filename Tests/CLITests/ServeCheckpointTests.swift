import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Ledger
import ProgressLedger
import Testing

/// `serve --key --origin`: a learner's signed checkpoint over HTTP (issue 25,
/// "Where they meet the rest"), checked with the CLI's own verifier as an
/// auditor or a device would, and against `checkpoint DIR --user`'s text.
@Suite("serve: learner checkpoints", .serialized)
struct ServeCheckpointTests {
    @Test("GET /v1/learners/U/checkpoint: signed at the head, the CLI's checkpoint byte for byte, verified and consistent after pushes")
    func learnerCheckpoint() throws {
        let keys = try TemporaryDirectory()
        let k = try CLI.run(["keygen", "school.example/progress", "--out", keys.path("school.key")])
        #expect(k.status == 0, "\(k.stderr)")
        try Data(k.stdout.utf8).write(to: URL(fileURLWithPath: keys.path("school.vkey")))
        let server = try ServerProcess(["--key", keys.path("school.key"), "--origin", "school.example/progress"])
        defer { server.terminate() }
        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let path = "/v1/learners/u-1/checkpoint"

        // No log yet: the empty tree (RFC 6962's root of no leaves is SHA-256 of nothing).
        let empty = try RawHTTP(port: server.port).request("GET", path, token: token)
        #expect(empty.status == 200, "\(empty.text)")
        #expect(empty.text.hasPrefix("school.example/progress/u-1\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n\n"), "\(empty.text)")

        func push(_ ids: ClosedRange<Int>) throws {
            let body = ids.map { ServeSecurityTests.event("e-\($0)", user: "u-1") + "\n" }.joined()
            #expect(try RawHTTP(port: server.port).request("POST", "/v1/learners/u-1/events", token: token, body: Array(body.utf8)).status == 200)
        }
        func fetch(_ name: String) throws -> String {
            let answer = try RawHTTP(port: server.port).request("GET", path, token: token)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.fields["content-type"]?.hasPrefix("text/plain") == true)
            try Data(answer.body).write(to: URL(fileURLWithPath: keys.path(name)))
            return answer.text
        }
        try push(1...5)
        let five = try fetch("c-5")
        #expect(five.hasPrefix("school.example/progress/u-1\n5\n"))
        // Ed25519 is deterministic: the route and the command sign the same text with the same key alike.
        let cli = try CLI.run(["checkpoint", server.directory, "--user", "u-1", "--key", keys.path("school.key"),
                               "--origin", "school.example/progress/u-1"])
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(cli.stdout == five)
        let verify = try CLI.run(["verify", server.directory, "--user", "u-1", "--checkpoint", keys.path("c-5"),
                                  "--vkey", keys.path("school.vkey"), "--origin", "school.example/progress/u-1"])
        #expect(verify.status == 0, "\(verify.stderr)")

        // After more pushes: a new checkpoint, and the server's log only appended since the old one.
        try push(6...9)
        #expect(try fetch("c-9").hasPrefix("school.example/progress/u-1\n9\n"))
        let proof = try CLI.run(["prove", server.directory, "--user", "u-1", "--from", keys.path("c-5"), "--checkpoint", keys.path("c-9")])
        #expect(proof.status == 0, "\(proof.stderr)")
        try Data(proof.stdout.utf8).write(to: URL(fileURLWithPath: keys.path("k")))
        let check = try CLI.run(["check-proof", keys.path("k"), "--from", keys.path("c-5"), "--checkpoint", keys.path("c-9"),
                                 "--vkey", keys.path("school.vkey"), "--origin", "school.example/progress/u-1"])
        #expect(check.status == 0, "\(check.stderr)")

        // Another learner's token is refused before anything is read.
        let other = try RawHTTP(port: server.port).request("GET", path, token: try Tokens.one(server.secretFile, sub: "u-2"))
        #expect(other.status == 403)
    }

    @Test("without --key the route is 404 no_checkpoint_key; --key without --origin is a usage error")
    func withoutAKey() throws {
        let server = try ServerProcess()
        defer { server.terminate() }
        let answer = try RawHTTP(port: server.port).request("GET", "/v1/learners/u-1/checkpoint", token: try Tokens.one(server.secretFile, sub: "u-1"))
        #expect(answer.status == 404)
        #expect(answer.kind == "no_checkpoint_key")
        let keys = try TemporaryDirectory()
        #expect(try CLI.run(["keygen", "school.example/progress", "--out", keys.path("school.key")]).status == 0)
        let usage = try CLI.run(["serve", keys.path("d"), "--listen", "127.0.0.1:0", "--secret-file", server.secretFile,
                                 "--key", keys.path("school.key")])
        #expect(usage.status == 64, "\(usage.stderr)")
        #expect(usage.stderr.contains("--origin"))
    }

    @Test("SyncClient with the verifier key: sync ends with the server's checkpoint checked against the replica; another key, origin or history refused")
    func syncClientChecks() async throws {
        let keys = try TemporaryDirectory()
        #expect(try CLI.run(["keygen", "school.example/progress", "--out", keys.path("school.key")]).status == 0)
        let other = try CLI.run(["keygen", "school.example/progress", "--out", keys.path("other.key")])
        let server = try ServerProcess(["--key", keys.path("school.key"), "--origin", "school.example/progress"])
        defer { server.terminate() }
        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let verifier = try NoteSigner(contentsOf: keys.path("school.key")).verifier
        func client(_ name: String, verifier: NoteVerifier, origin: String? = "school.example/progress/u-1") -> SyncClient {
            var c = SyncClient(server: server.url, user: "u-1", outbox: keys.path("\(name).outbox"), replica: keys.path("\(name).replica"),
                               token: { token }, transport: ServeSyncTests.Network(seed: 1).transport, retry: RetryPolicy(attempts: 3, delay: 0))
            c.checkpointVerifier = verifier
            c.checkpointOrigin = origin
            return c
        }
        for k in 1...3 {
            try LedgerWriter(path: keys.path("a.outbox")).append(try ServeSyncTests.event(id: "e-\(k)", user: "u-1", device: "a", minute: k, amount: k))
        }
        let report = try await client("a", verifier: verifier).sync()
        #expect(report.pushed == 3 && report.head.seq == 3)
        #expect(report.checkpoint?.checkpoint.size == 3)
        #expect(report.checkpoint?.checkpoint.origin == "school.example/progress/u-1")

        // Another key of the same name; another origin: refused, whatever the replica holds.
        let otherVerifier = try NoteVerifier(parsing: other.stdout, path: "other.vkey")
        for (c, kind) in [(client("b", verifier: otherVerifier), "key"), (client("c", verifier: verifier, origin: "school.example/progress/u-2"), "origin")] {
            do {
                _ = try await c.sync()
                Issue.record("a checkpoint of \(kind) was accepted")
            } catch {
                #expect(error.kind == .checkpointRefused, "\(error)")
                #expect(error.serverKind == kind, "\(error)")
            }
        }

        // A replica of another history of the same length (the server signed a log other than the one this device holds).
        for k in 1...3 {
            try LedgerWriter(path: keys.path("d.replica")).append(try ServeSyncTests.event(id: "x-\(k)", user: "u-1", device: "d", minute: k, amount: 7))
        }
        var d = SyncReport()
        do {
            try await client("d", verifier: verifier).checkCheckpoint(into: &d)
            Issue.record("a checkpoint of another history was accepted")
        } catch {
            #expect(error.kind == .checkpointRefused && error.serverKind == "root", "\(error)")
        }
        #expect(d.checkpoint == nil)
    }
}
