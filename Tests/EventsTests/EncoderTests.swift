import Foundation
import Testing
@testable import Events

/// The encoder against the spec: the member order of its tables, written out
/// here by hand, the escapes of RFC 8259 worked out by hand, and seeded round
/// trips through the decoder and through Foundation's parser.
@Suite("The encoder writes the spec's order and escapes")
struct EncoderTests {
    /// The spec's member order (events-v1.md), by type: the envelope's, then `data`'s.
    static let envelopeOrder = ["v", "seq", "id", "at", "user", "device", "type", "data", "prev"]
    static let dataOrder: [EventType: [String]] = [
        .quizStarted: ["attempt", "quiz", "questions", "daily", "title", "category", "difficulty", "diagnostic"],
        .answerSelected: ["attempt", "question", "choice", "correct", "correct_choice", "skill", "ms", "item"],   // item: events-v2.md
        .hintUsed: ["attempt", "question", "hint"],
        .quizFinished: ["attempt"], .quizAbandoned: ["attempt"],
        .puzzleCompleted: ["puzzle", "encoding", "seconds"], .puzzleFailed: ["puzzle", "encoding", "seconds"],
        .submissionMade: ["content", "kind", "category", "diagnostic", "seconds", "answers"],
        .hintsGranted: ["amount", "reason"], .progressReset: ["scope"],
        .streakFreezeGranted: ["amount", "reason"], .streakPaused: ["from", "to"],
    ]
    static let answerOrder = ["question", "choice", "correct", "skill", "item"]

    /// Whether `names` are `order`'s members in its order (some left out), then the extra ones as given.
    static func inOrder(_ names: [String], _ order: [String], extra: [String]) -> Bool {
        let known = names.filter(order.contains)
        return known == order.filter(known.contains) && names == known + extra
    }

    static func extra(_ event: Event) -> [JSONMember] {
        switch event {
        case .quizStarted(let d): d.extra
        case .answerSelected(let d): d.extra
        case .hintUsed(let d): d.extra
        case .quizFinished(let d), .quizAbandoned(let d): d.extra
        case .puzzleCompleted(let d), .puzzleFailed(let d): d.extra
        case .submissionMade(let d): d.extra
        case .hintsGranted(let d): d.extra
        case .progressReset(let d): d.extra
        case .streakFreezeGranted(let d): d.extra
        case .streakPaused(let d): d.extra
        }
    }

    static func withExtra(_ e: inout Envelope, _ extra: [JSONMember]) {
        switch e.event {
        case .quizStarted(var d): d.extra = extra; e.event = .quizStarted(d)
        case .answerSelected(var d): d.extra = extra; e.event = .answerSelected(d)
        case .hintUsed(var d): d.extra = extra; e.event = .hintUsed(d)
        case .quizFinished(var d): d.extra = extra; e.event = .quizFinished(d)
        case .quizAbandoned(var d): d.extra = extra; e.event = .quizAbandoned(d)
        case .puzzleCompleted(var d): d.extra = extra; e.event = .puzzleCompleted(d)
        case .puzzleFailed(var d): d.extra = extra; e.event = .puzzleFailed(d)
        case .submissionMade(var d):
            d.extra = extra
            if !d.answers.isEmpty { d.answers[0].extra = extra }
            e.event = .submissionMade(d)
        case .hintsGranted(var d): d.extra = extra; e.event = .hintsGranted(d)
        case .progressReset(var d): d.extra = extra; e.event = .progressReset(d)
        case .streakFreezeGranted(var d): d.extra = extra; e.event = .streakFreezeGranted(d)
        case .streakPaused(var d): d.extra = extra; e.event = .streakPaused(d)
        }
    }

    @Test("seeded envelopes: members in the spec's order, decode(encode(x)) == x, Foundation reads the same values",
          arguments: [7, 8] as [UInt64])
    func seeded(seed: UInt64) throws {
        var fuzzer = LineFuzzer(seed: seed)
        for seq in 1...1_500 {
            var envelope = fuzzer.envelope(seq: seq)
            var extra = Self.extra(envelope.event).map(\.name), answerExtra: [String] = []
            if fuzzer.chance(0.3) {
                let members = [JSONMember("y-\"\\\u{1}", fuzzer.pick([.null, .number("-0.25e2"), .string("\u{7F}\n\u{2028}"), .bool(false)])),
                               JSONMember("n", .array([.null, .bool(true), .number("-1.5e3"), .object([JSONMember("a", .string("\u{7F}\n"))])]))]
                Self.withExtra(&envelope, members)
                extra = members.map(\.name)
                answerExtra = extra
            }
            let line = LineCodec.encode(envelope)
            #expect(try LineCodec.decodeRecord(line) == .event(envelope))
            guard case .object(let top) = try line.withUnsafeBytes({ b throws(EventError) in try JSONScanner.parse(b) }),
                  case .object(let data)? = top.first(where: { $0.name == "data" })?.value else {
                Issue.record("not an object with data"); continue
            }
            #expect(Self.inOrder(top.map(\.name), Self.envelopeOrder, extra: []))
            #expect(Self.inOrder(data.map(\.name), Self.dataOrder[envelope.event.type] ?? [], extra: extra), "\(data.map(\.name))")
            if case .array(let answers)? = data.first(where: { $0.name == "answers" })?.value {
                for (k, a) in answers.enumerated() {
                    guard case .object(let members) = a else { Issue.record("answer not an object"); continue }
                    #expect(Self.inOrder(members.map(\.name), Self.answerOrder, extra: k == 0 ? answerExtra : []))
                }
            }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            #expect(DecoderTests.same(.object(top), object))
        }
    }

    @Test("escapes as RFC 8259 writes them, worked out by hand", arguments: [
        ("plain", #""plain""#), ("a\"b", #""a\"b""#), ("a\\b", #""a\\b""#), ("/", #""/""#),
        ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#), ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
        ("\u{7F}\u{85}é中𝄞\u{2028}", "\"\u{7F}\u{85}é中𝄞\u{2028}\""),
        ("12345678\"12345678\\", #""12345678\"12345678\\""#),
    ] as [(String, String)])
    func escapes(_ text: String, _ expected: String) {
        var w = JSONWriter(capacity: 1)
        w.string(text)
        #expect(String(decoding: w.bytes, as: UTF8.self) == expected)
    }

    @Test("the writer grows when escapes outgrow its room: every byte is kept")
    func growth() throws {
        let controls = String(repeating: "\u{1}\"", count: 300)
        let envelope = Envelope(seq: 1, id: "e-1", at: ts("2025-10-21T08:15:00Z"), user: "u",
                                event: .quizFinished(AttemptEnded(attempt: controls)), prev: Envelope.genesis)
        let line = String(decoding: LineCodec.encode(envelope), as: UTF8.self)
        let attempt = String(repeating: #"\u0001\""#, count: 300)
        #expect(line == #"{"v":1,"seq":1,"id":"e-1","at":"2025-10-21T08:15:00Z","user":"u","type":"quiz.finished","data":{"attempt":"\#(attempt)"},"prev":"\#(Envelope.genesis)"}"#)
        var w = JSONWriter(capacity: 1)
        var o = ObjectWriter(&w)
        for k in 0..<200 { o.key(&w, name: "k\(k)"); w.integer(k) }
        o.end(&w)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Int])
        #expect(object.count == 200 && object["k199"] == 199)
    }

    @Test("integers at the limits", arguments: [0, 9, 10, -1, -10, 99, 100, Int.max, Int.min])
    func integers(_ n: Int) {
        var w = JSONWriter(capacity: 1)
        w.integer(n)
        #expect(String(decoding: w.bytes, as: UTF8.self) == String(n))
    }
}
