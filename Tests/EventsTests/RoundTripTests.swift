import Foundation
import Testing
@testable import Events

@Suite("Encoding and decoding round trips")
struct RoundTripTests {
    @Test("encode writes the spec's member order byte for byte", arguments: Samples.cases.map(\.name))
    func exactBytes(name: String) throws {
        let sample = try #require(Samples.cases.first { $0.name == name })
        #expect(String(decoding: LineCodec.encode(sample.envelope), as: UTF8.self) == sample.line)
    }

    @Test("decode(encode(x)) == x for every event type", arguments: Samples.cases.map(\.name))
    func roundTrip(name: String) throws {
        let sample = try #require(Samples.cases.first { $0.name == name })
        let decoded = try LineCodec.decodeRecord(LineCodec.encode(sample.envelope))
        #expect(decoded == .event(sample.envelope))
    }

    @Test("every event type is covered by the samples")
    func coverage() {
        let covered = Set(Samples.cases.map(\.envelope.event.type))
        #expect(covered == Set(EventType.allCases))
    }

    @Test("unknown data members survive a round trip, in order and with their literals")
    func unknownMembers() throws {
        let line = #"{"v":1,"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","type":"answer.selected","data":{"zeta":{"b":[1,2.50,null,true]},"attempt":"a","question":"q","choice":0,"correct":true,"alpha":1e3,"answers":"x"},"prev":"\#(Envelope.genesis)"}"#
        guard case .event(let e) = try LineCodec.decodeRecord(Array(line.utf8)) else {
            Issue.record("expected a v1 record"); return
        }
        guard case .answerSelected(let a) = e.event else { Issue.record("wrong type"); return }
        #expect(a.extra.map(\.name) == ["zeta", "alpha", "answers"])
        #expect(a.extra[1].value == .number("1e3"))
        let again = String(decoding: LineCodec.encode(e), as: UTF8.self)
        #expect(again.contains(#""zeta":{"b":[1,2.50,null,true]}"#))
        #expect(again.contains(#""alpha":1e3"#))
        #expect(try LineCodec.decodeRecord(Array(again.utf8)) == .event(e))
    }

    @Test("a reader accepts any member order and insignificant whitespace")
    func anyOrder() throws {
        let line = #"{ "prev" : "\#(Envelope.genesis)", "data": {"scope":"all"}, "type":"progress.reset", "user":"u", "at":"2025-01-01T00:00:00Z", "id":"r", "seq":1, "v":1 }"#
        let record = try LineCodec.decodeRecord(Array(line.utf8))
        #expect(record == .event(Envelope(seq: 1, id: "r", at: ts("2025-01-01T00:00:00Z"), user: "u",
                                       event: .progressReset(ProgressReset(scope: .all)), prev: Envelope.genesis)))
    }

    @Test("optional members given as null are absent")
    func nullIsAbsent() throws {
        let line = #"{"v":1,"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","device":null,"type":"quiz.started","data":{"attempt":"a","quiz":"q","questions":3,"daily":null,"title":null},"prev":"\#(Envelope.genesis)"}"#
        guard case .event(let e) = try LineCodec.decodeRecord(Array(line.utf8)) else {
            Issue.record("expected a v1 record"); return
        }
        #expect(e.device == nil)
        #expect(e.event == .quizStarted(QuizStarted(attempt: "a", quiz: "q", questions: 3)))
    }

    @Test("a newer-version line is kept: only seq, id and prev are checked")
    func newerVersion() throws {
        let line = #"{"v":3,"seq":7,"id":"n-1","user":"u-1","type":"quiz.teleported","data":[1],"prev":"\#(Envelope.genesis)","whatever":{"x":1}}"#
        let record = try LineCodec.decodeRecord(Array(line.utf8))
        #expect(record == .newer(NewerVersionLine(version: 3, seq: 7, id: "n-1", user: "u-1",
                                                  prev: Envelope.genesis, type: "quiz.teleported")))
        let broken = #"{"v":3,"seq":0,"id":"n-1","prev":"\#(Envelope.genesis)"}"#
        #expect(throws: EventError.self) { try LineCodec.decodeRecord(Array(broken.utf8)) }
    }

    @Test("append input: v and id are optional, seq and prev are refused")
    func newEventInput() throws {
        let line = #"{"at":"2025-10-21T08:15:00+03:00","user":"u-1","type":"hints.granted","data":{"amount":5,"reason":"seed"}}"#
        let e = try LineCodec.decodeNewEvent(Array(line.utf8))
        #expect(e == NewEvent(at: ts("2025-10-21T08:15:00+03:00"), user: "u-1",
                              event: .hintsGranted(HintsGranted(amount: 5, reason: .seed))))
    }

    @Test("every encoded sample is valid JSON to Foundation, with the same member values")
    func foundationAgrees() throws {
        for sample in Samples.cases {
            let object = try JSONSerialization.jsonObject(with: Data(LineCodec.encode(sample.envelope)))
            let dict = try #require(object as? [String: Any])
            #expect(dict["seq"] as? Int == sample.envelope.seq)
            #expect(dict["user"] as? String == sample.envelope.user)
            #expect(dict["type"] as? String == sample.envelope.event.type.rawValue)
        }
    }
}
