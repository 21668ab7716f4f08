import Events
import Foundation
import Testing

/// Codable against the spec's bytes: the hand-written sample lines (one per
/// event type, with all optional members and with none) are what
/// `JSONEncoder` must write and what `JSONDecoder` must read back, and the
/// results must equal the ledger's own codec. JSON values are compared with
/// Foundation's `JSONSerialization` (a parser written independently of ours).
@Suite("Codable: the spec's JSON")
struct CodableTests {
    static let names = Samples.cases.map(\.name)

    static func sample(_ name: String) -> (envelope: Envelope, line: String) {
        guard let c = Samples.cases.first(where: { $0.name == name }) else { fatalError("no sample \(name)") }
        return (c.envelope, c.line)
    }

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.withoutEscapingSlashes]
        return e
    }

    /// The JSON value of some bytes, as Foundation parses it.
    static func json(_ data: Data) throws -> NSObject {
        try #require(JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test("an envelope encodes to its line's JSON and decodes to what LineCodec decodes", arguments: names)
    func envelope(_ name: String) throws {
        let (envelope, line) = Self.sample(name)
        let encoded = try Self.encoder().encode(envelope)
        #expect(try Self.json(encoded) == Self.json(Data(line.utf8)))
        let decoded = try JSONDecoder().decode(Envelope.self, from: Data(line.utf8))
        #expect(decoded == envelope)
        #expect(Record.event(decoded) == (try LineCodec.decodeRecord(Array(line.utf8))))
    }

    @Test("an encoded NewEvent is a line append accepts: the line without v, seq and prev", arguments: names)
    func newEvent(_ name: String) throws {
        let (envelope, line) = Self.sample(name)
        let event = NewEvent(id: envelope.id, at: envelope.at, user: envelope.user, device: envelope.device, event: envelope.event)
        let encoded = try Self.encoder().encode(event)
        #expect(try LineCodec.decodeNewEvent(Array(encoded)) == event)
        let expected = try #require(Self.json(Data(line.utf8)).mutableCopy() as? NSMutableDictionary)
        expected.removeObjects(forKeys: ["v", "seq", "prev"])
        #expect(try Self.json(encoded) == expected)
        #expect(try JSONDecoder().decode(NewEvent.self, from: encoded) == event)
        // Without an id: no `id` member, and the decoder leaves it to the ledger.
        let anonymous = NewEvent(at: envelope.at, user: envelope.user, event: envelope.event)
        let bare = try Self.encoder().encode(anonymous)
        #expect((try Self.json(bare) as? NSDictionary)?["id"] == nil)
        #expect(try JSONDecoder().decode(NewEvent.self, from: bare) == anonymous)
    }

    @Test("each payload codes as its line's data object; Event as type and data", arguments: names)
    func payload(_ name: String) throws {
        let (envelope, line) = Self.sample(name)
        let whole = try #require(Self.json(Data(line.utf8)) as? NSDictionary)
        let data = try #require(whole["data"] as? NSObject)
        func check<P: Codable & Equatable>(_ p: P) throws {
            let encoded = try Self.encoder().encode(p)
            #expect(try Self.json(encoded) == data)
            #expect(try JSONDecoder().decode(P.self, from: encoded) == p)
        }
        switch envelope.event {
        case .quizStarted(let d): try check(d)
        case .answerSelected(let d): try check(d)
        case .hintUsed(let d): try check(d)
        case .quizFinished(let d), .quizAbandoned(let d): try check(d)
        case .puzzleCompleted(let d), .puzzleFailed(let d): try check(d)
        case .submissionMade(let d):
            try check(d)
            for (k, answer) in d.answers.enumerated() {
                let item = try #require(((data as? NSDictionary)?["answers"] as? NSArray)?[k] as? NSObject)
                #expect(try Self.json(Self.encoder().encode(answer)) == item)
                #expect(try JSONDecoder().decode(SubmissionMade.Answer.self, from: Self.encoder().encode(answer)) == answer)
            }
        case .hintsGranted(let d): try check(d)
        case .progressReset(let d): try check(d)
        case .streakFreezeGranted(let d): try check(d)
        case .streakPaused(let d): try check(d)
        }
        let event = try Self.encoder().encode(envelope.event)
        #expect(try Self.json(event) == (["type": envelope.event.type.rawValue, "data": data] as NSDictionary))
        #expect(try JSONDecoder().decode(Event.self, from: event) == envelope.event)
    }

    @Test("unknown members of data are kept, as plain JSON")
    func extraMembers() throws {
        let line = #"{"at":"2025-10-21T08:00:00Z","user":"u","type":"hints.granted","data":{"amount":3,"reason":"seed","campaign":{"n":[1,2.5,null,true]}}}"#
        let viaCodec = try LineCodec.decodeNewEvent(Array(line.utf8))
        let viaCodable = try JSONDecoder().decode(NewEvent.self, from: Data(line.utf8))
        #expect(viaCodable == viaCodec)
        #expect(try Self.json(Self.encoder().encode(viaCodable)) == Self.json(Data(line.utf8)))
    }

    @Test("an event append would refuse does not decode, and the error names the member and rule")
    func refused() throws {
        let line = #"{"at":"2025-10-21T08:00:00Z","user":"u","type":"answer.selected","data":{"attempt":"a","question":"q","choice":-1,"correct":true}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NewEvent.self, from: Data(line.utf8)) }
        do {
            _ = try JSONDecoder().decode(NewEvent.self, from: Data(line.utf8))
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("data.choice"))
            #expect((context.underlyingError as? EventError)?.kind == .invalidData)
        }
        let newer = #"{"v":3,"seq":1,"id":"x","prev":"0000000000000000000000000000000000000000000000000000000000000000"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Envelope.self, from: Data(newer.utf8)) }
    }
}
