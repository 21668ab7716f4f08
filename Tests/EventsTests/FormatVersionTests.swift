import Testing
@testable import Events

/// Format version 2 (events-v2.md) against lines written out by hand: the
/// writer's `v` is the type's, an appended event with another `v` is refused
/// naming `v`, a reader that knows only version 1 keeps version-2 lines as
/// newer, and a newer line re-sealed for a merge changes only `seq` and `prev`.
@Suite("Format version 2: which v a line carries, and the version-1 reader")
struct FormatVersionTests {
    static let genesis = Envelope.genesis
    static let grant = #"{"v":2,"seq":4,"id":"g-1","at":"2025-03-01T09:00:00+01:00","user":"u-1","type":"streak.freeze_granted","data":{"amount":1,"reason":"reward"},"prev":"\#(genesis)"}"#

    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// The line read by a reader that knows only version 1.
    func readAsVersionOne(_ line: String) throws(EventError) -> Record {
        try LineCodec.withBytes(bytes(line)) { (b) throws(EventError) in try LineDecoder.record(b, known: 1) }
    }

    @Test("each type's version: 1 for events-v1.md's ten, 2 for the two streak types")
    func versions() {
        let two: Set<EventType> = [.streakFreezeGranted, .streakPaused]
        for type in EventType.allCases { #expect(type.version == (two.contains(type) ? 2 : 1), "\(type)") }
        #expect(FormatVersion.latest == 2)
    }

    @Test("the writer sets v from the type: a v1 type's line is what a version-1 writer wrote, a v2 type's says 2")
    func writerSetsV() throws {
        let at = ts("2025-03-01T09:00:00+01:00")
        let grant = NewEvent(id: "g-1", at: at, user: "u-1", event: .streakFreezeGranted(StreakFreezeGranted(amount: 1, reason: .reward)))
        #expect(String(decoding: LineCodec.encode(grant.sealed(seq: 4, id: "g-1", prev: Self.genesis)), as: UTF8.self) == Self.grant)
        let finished = NewEvent(id: "f", at: at, user: "u-1", event: .quizFinished(AttemptEnded(attempt: "a")))
        #expect(String(decoding: LineCodec.encode(finished.sealed(seq: 10, id: "f", prev: Self.genesis)), as: UTF8.self)
                == #"{"v":1,"seq":10,"id":"f","at":"2025-03-01T09:00:00+01:00","user":"u-1","type":"quiz.finished","data":{"attempt":"a"},"prev":"\#(Self.genesis)"}"#)
        // The writer's fast path (a pending line sealed later) writes the same bytes.
        let pending = try LineCodec.encodeChecked(grant, id: "g-1")
        let prev = String(repeating: "7f", count: 32)
        #expect(pending.sealed(seq: 12_345, prev: prev) == LineCodec.encode(grant.sealed(seq: 12_345, id: "g-1", prev: prev)))
    }

    @Test("an appended event with no v gets its type's; with another v it is refused as invalid_envelope naming v", arguments: [
        (#"{"at":"2025-03-01T09:00:00Z","user":"u","type":"streak.paused","data":{"from":"2025-03-01","to":"2025-03-03"}}"#, "ok"),
        (#"{"v":2,"at":"2025-03-01T09:00:00Z","user":"u","type":"streak.paused","data":{"from":"2025-03-01","to":"2025-03-03"}}"#, "ok"),
        (#"{"v":1,"at":"2025-03-01T09:00:00Z","user":"u","type":"streak.paused","data":{"from":"2025-03-01","to":"2025-03-03"}}"#, "invalid_envelope v"),
        (#"{"v":2,"at":"2025-03-01T09:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#, "invalid_envelope v"),
        (#"{"v":3,"at":"2025-03-01T09:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#, "invalid_envelope v"),
        (#"{"v":1,"at":"2025-03-01T09:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#, "ok"),
        // The pause's own rules, against the day of its own at (2025-03-01 in +09:00, 2025-02-28 in UTC).
        (#"{"at":"2025-03-01T08:00:00+09:00","user":"u","type":"streak.paused","data":{"from":"2025-02-28","to":"2025-03-03"}}"#, "invalid_data data.from"),
        (#"{"at":"2025-02-28T23:00:00Z","user":"u","type":"streak.paused","data":{"from":"2025-02-28","to":"2025-03-03"}}"#, "ok"),
        (#"{"at":"2025-03-01T09:00:00Z","user":"u","type":"streak.paused","data":{"from":"2025-03-01","to":"2025-05-30"}}"#, "invalid_data data.to"),
    ] as [(String, String)])
    func appendV(line: String, expected: String) {
        let got: String
        do {
            _ = try LineCodec.decodeNewEvent(bytes(line))
            got = "ok"
        } catch {
            got = error.kind.rawValue + (error.member.map { " " + $0 } ?? "")
        }
        #expect(got == expected)
    }

    @Test("a version-1 reader keeps a version-2 line as newer: seq, id and prev checked, user, type and at read")
    func versionOneReader() throws {
        let record = try readAsVersionOne(Self.grant)
        #expect(record == .newer(NewerVersionLine(version: 2, seq: 4, id: "g-1", user: "u-1", prev: Self.genesis,
                                                  type: "streak.freeze_granted", at: ts("2025-03-01T09:00:00+01:00"))))
        // The newest reader reads it fully.
        guard case .event(let e) = try LineCodec.decodeRecord(bytes(Self.grant)) else { Issue.record("not an event"); return }
        #expect(e.event == .streakFreezeGranted(StreakFreezeGranted(amount: 1, reason: .reward)))
        #expect(e.version == 2)
        // A line saying v 1 with a version-2 type is, to a version-1 reader, a type it does not know.
        let claimed = Self.grant.replacing(#"{"v":2,"#, with: #"{"v":1,"#)
        #expect(throws: EventError.self) { try readAsVersionOne(claimed) }
        do throws(EventError) {
            _ = try readAsVersionOne(claimed)
        } catch {
            #expect(error.member == "type")
            #expect(!error.message.contains("streak.paused"), "a version-1 reader lists its own ten types: \(error.message)")
        }
        // ... and to the newest reader, a v that does not match its type.
        #expect(verdict(bytes(claimed)) == "invalid_envelope v")
    }

    @Test("a newer line re-sealed for a merge changes only seq and prev; a line not laid out so is not relayed")
    func relaying() throws {
        let line = #"{"v":3,"seq":17,"id":"n","at":"2031-01-01T00:00:00Z","who":{"seq":1},"prev":"\#(String(repeating: "ab", count: 32))"}"#
        let relayed = try #require(PendingLine(relaying: bytes(line)))
        let prev = String(repeating: "c", count: 64)
        #expect(String(decoding: relayed.sealed(seq: 2, prev: prev), as: UTF8.self)
                == #"{"v":3,"seq":2,"id":"n","at":"2031-01-01T00:00:00Z","who":{"seq":1},"prev":"\#(prev)"}"#)
        #expect(String(decoding: relayed.sealed(seq: 100_000, prev: prev), as: UTF8.self)
                == #"{"v":3,"seq":100000,"id":"n","at":"2031-01-01T00:00:00Z","who":{"seq":1},"prev":"\#(prev)"}"#)
        for other in [
            #"{"seq":17,"v":3,"id":"n","prev":"\#(Self.genesis)"}"#,                 // seq before v
            #"{"v":3, "seq":17,"id":"n","prev":"\#(Self.genesis)"}"#,                // a space
            #"{"v":10,"seq":17,"id":"n","prev":"\#(Self.genesis)"}"#,                // two digits of v
            #"{"v":3,"seq":17,"id":"n","prev":"\#(Self.genesis)","x":1}"#,           // prev not last
            #"{"v":3,"seq":17,"id":"n","prev":"\#(String(repeating: "A", count: 64))"}"#, // uppercase hex
        ] {
            #expect(PendingLine(relaying: bytes(other)) == nil, "\(other)")
        }
    }
}
