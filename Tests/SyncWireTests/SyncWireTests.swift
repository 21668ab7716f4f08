import Events
import Ledger
import SyncWire
import Testing

/// The sync protocol's bytes (docs/sync.md, docs/openapi.yaml) against
/// hand-written ones: what the server sends and the client reads.
/// Strings are compared by their code points, never with `String ==`.
@Suite("Sync wire")
struct SyncWireTests {
    static let zeros = String(repeating: "0", count: 64)
    static let hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"   // SHA-256 of "test"

    static func scalars(_ s: String?) -> [UInt32] { s.map { $0.unicodeScalars.map(\.value) } ?? [] }
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    // MARK: heads

    @Test("a head prints SEQ:SHA256 and parses back, the empty log's 0: and 64 zeros included")
    func headRoundTrip() throws {
        #expect(Self.bytes(Head.empty.description) == Self.bytes("0:" + Self.zeros))
        #expect(Head(parsing: "0:" + Self.zeros) == Head.empty)
        let head = Head(seq: 12, sha256: try #require(SHA256.Digest(hex: Self.hex)))
        #expect(Self.bytes(head.description) == Self.bytes("12:" + Self.hex))
        #expect(Head(parsing: head.description) == head)
        for printed in [Head.empty, head, Head(seq: 999_999_999, sha256: .zero)] {
            #expect(Head(parsing: printed.description) == printed, "\(printed)")
            #expect(LedgerHeadField.head(LedgerHeadField.value(printed)) == printed)
        }
        // Seq 0 names the empty log only: with any other hash it is no log's head.
        #expect(Head(parsing: "0:" + Self.hex) == nil)
        for bad in ["", "0", "0:", ":" + Self.zeros, "-0:" + Self.zeros, "0:" + Self.zeros.dropLast(), "0:" + Self.zeros + "0", "0x:" + Self.zeros] {
            #expect(Head(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("Ledger-Head and Retry-After: names as sent, values as read")
    func headerFields() {
        #expect(Self.bytes(LedgerHeadField.name) == Self.bytes("Ledger-Head"))
        #expect(Self.bytes(RetryAfterField.name) == Self.bytes("Retry-After"))
        #expect(Self.bytes(RetryAfterField.value(seconds: 4)) == Self.bytes("4"))
        #expect(RetryAfterField.seconds("4") == 4)
        #expect(RetryAfterField.seconds(" 17 ") == 17)
        #expect(RetryAfterField.seconds("-3") == 0)
        #expect(RetryAfterField.seconds("Wed, 21 Oct 2015 07:28:00 GMT") == nil)   // the date form: not read
        #expect(LedgerHeadField.head("7") == nil)
    }

    // MARK: push answer

    @Test("the push answer: the bytes docs/sync.md shows, and read back")
    func pushAnswerBytes() throws {
        let head = Head(seq: 2, sha256: try #require(SHA256.Digest(hex: Self.hex)))
        let answer = PushAnswer(events: [PushAnswer.Event(id: "e-1", seq: 1, appended: true),
                                         PushAnswer.Event(id: "caf\u{E9}", seq: 2, appended: false)], head: head)
        let written = #"{"events":[{"id":"e-1","seq":1,"appended":true},{"id":"café","seq":2,"appended":false}],"head":"2:"#
            + Self.hex + "\"}\n"
        #expect(answer.encoded == Self.bytes(written))
        let read = try #require(PushAnswer(decoding: Self.bytes(written)))
        #expect(read.head == head)
        #expect(read.events.map(\.seq) == [1, 2])
        #expect(read.events.map(\.appended) == [true, false])
        #expect(Self.scalars(read.events[1].id) == [0x63, 0x61, 0x66, 0xE9])

        // As any JSON writer may space it, members in another order, one it does not know.
        let spaced = "{ \"head\" : \"0:\(Self.zeros)\", \"extra\": [1, {}],\n \"events\" : [ {\"appended\": true, \"seq\": 3, \"id\": \"e-3\"} ] }"
        let other = try #require(PushAnswer(decoding: Self.bytes(spaced)))
        #expect(other.head == Head.empty)
        #expect(other.events.count == 1 && other.events[0].seq == 3 && other.events[0].appended)

        // Not the documented shape: refused, never half read.
        for bad in [#"{"events":[{"id":"e","seq":"1","appended":true}],"head":"1:\#(Self.hex)"}"#,
                    #"{"events":[{"id":"e","seq":0,"appended":true}],"head":"1:\#(Self.hex)"}"#,
                    #"{"events":[{"id":"e","seq":1.5,"appended":true}],"head":"1:\#(Self.hex)"}"#,
                    #"{"events":[{"id":"e","seq":1,"appended":1}],"head":"1:\#(Self.hex)"}"#,
                    #"{"events":[{"id":"e","seq":1,"appended":true}],"head":"0:\#(Self.hex)"}"#,
                    #"{"events":[{"id":"e","seq":1,"appended":true}]}"#,
                    #"{"events":{},"head":"1:\#(Self.hex)"}"#, "[]", "not json", ""] {
            #expect(PushAnswer(decoding: Self.bytes(bad)) == nil, "\(bad)")
        }
    }

    // MARK: refusals

    @Test("a refusal's body: error and message first, its own members after; read back with its status")
    func refusalBytes() throws {
        let refusal = Refusal(status: 429, kind: "rate_limited", message: "learner \"u-1\" pushed too fast",
                              members: [JSONMember("retry_after", .number("2"))])
        let written = #"{"error":"rate_limited","message":"learner \"u-1\" pushed too fast","retry_after":2}"# + "\n"
        #expect(refusal.body == Self.bytes(written))
        let read = try #require(Refusal(status: 429, body: Self.bytes(written)))
        #expect(read.status == 429)
        #expect(Self.scalars(read.kind) == Self.scalars("rate_limited"))
        #expect(Self.scalars(read.message) == Self.scalars(#"learner "u-1" pushed too fast"#))
        #expect(read.members.count == 1 && read.members[0].value == .number("2"))

        // docs/openapi.yaml's Error: `problems` kept as given.
        let invalid = #"{"error":"invalid_data","message":"1 invalid event, nothing was written: line 1: data.amount: must be at least 1","problems":[{"line":1,"kind":"invalid_data","member":"data.amount","rule":"must be at least 1"}]}"#
        let problems = try #require(Refusal(status: 400, body: Self.bytes(invalid + "\n")))
        #expect(Self.scalars(problems.kind) == Self.scalars("invalid_data"))
        #expect(Self.scalars(problems.members.first?.name) == Self.scalars("problems"))
        #expect(problems.body == Self.bytes(invalid + "\n"))

        for bad in [#"{"error":"x"}"#, #"{"message":"x"}"#, #"{"error":1,"message":"x"}"#, "<html>502</html>", ""] {
            #expect(Refusal(status: 502, body: Self.bytes(bad)) == nil, "\(bad)")
        }
    }

    // MARK: percent-encoding and paths

    @Test("percent-encoding: unreserved bytes kept, every other byte %XX upper-case, decoded back to the same code points")
    func percentEncoding() throws {
        let cases: [(String, String)] = [
            ("u-42", "u-42"),
            ("A.z_0~9", "A.z_0~9"),
            ("a b/c?d#e%f+g&h=i", "a%20b%2Fc%3Fd%23e%25f%2Bg%26h%3Di"),
            ("caf\u{E9}", "caf%C3%A9"),           // é as one code point (NFC)
            ("cafe\u{301}", "cafe%CC%81"),        // e and a combining acute (NFD)
            ("\u{1F600}x", "%F0%9F%98%80x"),
            ("\u{7F}", "%7F"),
        ]
        for (id, encoded) in cases {
            #expect(Self.bytes(PercentEncoding.encode(id)) == Self.bytes(encoded), "\(encoded)")
            #expect(Self.scalars(PercentEncoding.decode(encoded)) == Self.scalars(id), "\(encoded)")
        }
        // The two spellings of "café" stay two ids, in both directions.
        #expect(Self.bytes(PercentEncoding.encode("caf\u{E9}")) != Self.bytes(PercentEncoding.encode("cafe\u{301}")))
        #expect(Self.scalars(PercentEncoding.decode("caf%C3%A9")) != Self.scalars(PercentEncoding.decode("cafe%CC%81")))
        // Lower-case escapes are read; `+` is a space in a query only.
        #expect(Self.scalars(PercentEncoding.decode("caf%c3%a9")) == [0x63, 0x61, 0x66, 0xE9])
        #expect(Self.scalars(PercentEncoding.decode("a+b")) == Self.scalars("a+b"))
        #expect(Self.scalars(PercentEncoding.decode("a+b", plusIsSpace: true)) == Self.scalars("a b"))
        // A bad escape, a cut one, bytes that are not UTF-8.
        for bad in ["%", "%4", "%ZZ", "a%2", "%C3", "%FF", "%C3%28"] {
            #expect(PercentEncoding.decode(bad) == nil, "\(bad)")
        }
    }

    @Test("a learner's path: built with the id percent-encoded, matched back to the same code points")
    func learnerPaths() throws {
        #expect(Self.bytes(RoutePath.learnerEvents.description) == Self.bytes("/v1/learners/{user}/events"))
        #expect(Self.bytes(RoutePath.learnerEvents.path(user: "u-42")) == Self.bytes("/v1/learners/u-42/events"))
        #expect(Self.bytes(RoutePath.learnerCheckpoint.path(user: "caf\u{E9}")) == Self.bytes("/v1/learners/caf%C3%A9/checkpoint"))
        #expect(Self.bytes(RoutePath.learnerHead.path(user: "cafe\u{301}")) == Self.bytes("/v1/learners/cafe%CC%81/head"))
        #expect(Self.bytes(RoutePath.learnerState.path(user: "a/b c")) == Self.bytes("/v1/learners/a%2Fb%20c/state"))
        for user in ["u-42", "caf\u{E9}", "cafe\u{301}", "a/b c", "x?y#z", "%41", "\u{1F600}", "+"] {
            for template in [RoutePath.learnerEvents, .learnerHead, .learnerState, .learnerCheckpoint] {
                guard case .matches(let found) = template.match(template.path(user: user)) else {
                    Issue.record("\(template.path(user: user)) not matched"); continue
                }
                #expect(Self.scalars(found) == Self.scalars(user), "\(template.path(user: user))")
            }
        }
        // Another endpoint, more or fewer segments: another path.
        for other in ["/v1/learners/u/head", "/v1/learners/u/events/x", "/v1/learners/u", "v1/learners/u/events", "/v1/learners//events/"] {
            guard case .differs = RoutePath.learnerEvents.match(other) else { Issue.record("\(other) matched"); continue }
        }
        // A path without a learner.
        let healthz: RoutePath = [.literal("healthz")]
        guard case .matches(let none) = healthz.match("/healthz") else { Issue.record("/healthz not matched"); return }
        #expect(none == nil)
        // A learner segment that is not percent-encoded UTF-8.
        for bad in ["/v1/learners/%ZZ/events", "/v1/learners/%C3/events"] {
            guard case .badUser = RoutePath.learnerEvents.match(bad) else { Issue.record("\(bad) not refused"); continue }
        }
    }

    @Test("a pull's query")
    func pullQuery() {
        #expect(Self.bytes(PullQuery.text(after: 0, limit: 10_000)) == Self.bytes("after=0&limit=10000"))
        #expect(Self.bytes(PullQuery.text(after: 7, limit: 100, wait: 30)) == Self.bytes("after=7&limit=100&wait=30"))
        #expect(PullQuery.names.map(Self.bytes) == ["after", "limit", "wait"].map(Self.bytes))
    }
}
