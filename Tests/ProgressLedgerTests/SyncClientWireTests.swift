import Events
import Foundation
import Ledger
import ProgressLedger
import Testing

/// What `SyncClient` sends and reads, against hand-written server answers
/// (docs/sync.md, docs/openapi.yaml) through a transport that records each
/// request: the learner's path percent-encoded, the empty log's head, the
/// push answer and refusal bodies.
@Suite("SyncClient: the wire")
struct SyncClientWireTests {
    static let zeros = String(repeating: "0", count: 64)
    static let hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

    /// A transport answering from `answer`, keeping every request.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [SyncRequest] = []
        let answer: @Sendable (SyncRequest) -> SyncResponse
        init(_ answer: @escaping @Sendable (SyncRequest) -> SyncResponse) { self.answer = answer }
        var sent: [SyncRequest] { lock.withLock { requests } }
        var transport: SyncTransport {
            { request in
                self.lock.withLock { self.requests.append(request) }
                return self.answer(request)
            }
        }
    }

    static func client(_ scratch: Scratch, user: String, _ recorder: Recorder) -> SyncClient {
        SyncClient(server: "https://sync.example/", user: user, outbox: scratch.file("outbox.log"), replica: scratch.file("replica.log"),
                   token: { "T" }, transport: recorder.transport, retry: RetryPolicy(attempts: 1, delay: 0))
    }

    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test("a learner without a log: Ledger-Head 0: and 64 zeros is the empty head; the path's id is percent-encoded byte for byte, both spellings of café apart")
    func emptyLogAndPaths() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (user, encoded) in [("caf\u{E9}", "caf%C3%A9"), ("cafe\u{301}", "cafe%CC%81"), ("a/b c?", "a%2Fb%20c%3F")] {
            let recorder = Recorder { _ in SyncResponse(status: 200, headers: ["Ledger-Head": "0:" + Self.zeros]) }
            let report = try await Self.client(scratch, user: user, recorder).sync()
            #expect(report.head == Head.empty)
            #expect(report.pulled == 0 && report.pushed == 0)
            #expect(recorder.sent.map { Self.bytes($0.url) }
                    == [Self.bytes("https://sync.example/v1/learners/\(encoded)/events?after=0&limit=10000")])
            #expect(recorder.sent.map(\.method) == ["GET"])
        }
        // A head the server could never send (seq 0, another hash) is no head: the sync stops, nothing written.
        let fresh = try Scratch()
        defer { fresh.remove() }
        let recorder = Recorder { _ in SyncResponse(status: 200, headers: ["Ledger-Head": "0:" + Self.hex]) }
        let error = await #expect(throws: SyncError.self) { _ = try await Self.client(fresh, user: "u-1", recorder).sync() }
        #expect(error?.kind == .unavailable && error?.status == 200)
        #expect(!FileManager.default.fileExists(atPath: fresh.file("replica.log")))
    }

    @Test("a push: the outbox's lines sent as JSON lines, the answer's appended counted")
    func pushAnswer() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let writer = try LedgerWriter(path: scratch.file("outbox.log"))
        for id in ["e-1", "e-2"] {
            try writer.append(try LineCodec.decodeNewEvent(Self.bytes(
                #"{"id":"\#(id)","at":"2025-10-21T09:00:00Z","user":"u-1","device":"phone","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#)))
        }
        writer.close()
        let answer = #"{"events":[{"id":"e-1","seq":1,"appended":true},{"id":"e-2","seq":2,"appended":false}],"head":"2:\#(Self.hex)"}"# + "\n"
        let recorder = Recorder { _ in SyncResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.bytes(answer)) }
        var report = SyncReport()
        try await Self.client(scratch, user: "u-1", recorder).push(into: &report)
        #expect(report.pushed == 2 && report.appended == 1)
        let sent = try #require(recorder.sent.first)
        #expect(sent.method == "POST" && Self.bytes(sent.url) == Self.bytes("https://sync.example/v1/learners/u-1/events"))
        #expect(sent.headers["Content-Type"].map(Self.bytes) == Self.bytes("application/x-ndjson"))
        #expect(String(decoding: sent.body, as: UTF8.self).split(separator: "\n").count == 2)

        // An answer not of the documented shape (a seq as a string) stops the push: `unavailable`.
        let odd = Recorder { _ in SyncResponse(status: 200, body: Self.bytes(answer.replacingOccurrences(of: #""seq":1"#, with: #""seq":"1""#))) }
        var again = SyncReport()
        let error = await #expect(throws: SyncError.self) { try await Self.client(scratch, user: "u-1", odd).push(into: &again) }
        #expect(error?.kind == .unavailable && error?.status == 200)
    }

    @Test("refusals: the body's kind and message; 409 is conflicting_duplicate; a body that is not the JSON is quoted")
    func refusals() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases: [(Int, String, SyncError.Kind, String?, String)] = [
            (403, #"{"error":"forbidden","message":"this token is for learner \"u-2\""}"#, .refused, "forbidden", #"this token is for learner "u-2""#),
            (409, #"{"error":"conflicting_duplicate","message":"line 1: id e-1","problems":[]}"#, .conflictingDuplicate, "conflicting_duplicate", "line 1: id e-1"),
            (400, "<html>bad</html>", .refused, nil, "<html>bad</html>"),
        ]
        for (status, body, kind, serverKind, message) in cases {
            let recorder = Recorder { _ in SyncResponse(status: status, body: Self.bytes(body + "\n")) }
            let error = await #expect(throws: SyncError.self) { _ = try await Self.client(scratch, user: "u-1", recorder).sync() }
            #expect(error?.kind == kind && error?.status == status)
            #expect(error?.serverKind.map(Self.bytes) == serverKind.map(Self.bytes))
            #expect(error.map { Self.bytes($0.message.trimmingCharacters(in: .newlines)) } == Self.bytes(message))
        }
    }
}
