import Foundation
import Testing

/// `serve --key --origin`: a learner's signed checkpoint over HTTP (issue 25,
/// "Where they meet the rest"), checked with the CLI's own verifier as an
/// auditor or a device would, and against `checkpoint DIR --user`'s text.
@Suite("serve: learner checkpoints", .serialized)
struct ServeCheckpointTests {
    static func event(_ id: String, user: String) -> String {
        #"{"id":"\#(id)","at":"2025-10-21T08:15:00+03:00","user":"\#(user)","type":"hints.granted","data":{"amount":3,"reason":"seed"}}"#
    }

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
            let body = ids.map { Self.event("e-\($0)", user: "u-1") + "\n" }.joined()
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
}
