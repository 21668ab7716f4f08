import Foundation
import Testing
@testable import Events

/// What a decoder made of a line, comparable across decoders.
enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
    case value(T)
    case error(EventError)

    init(_ result: Result<T, EventError>) {
        switch result {
        case .success(let v): self = .value(v)
        case .failure(let e): self = .error(e)
        }
    }

    var description: String {
        switch self {
        case .value(let v): "value \(v)"
        case .error(let e): "error \(e) (offset \(e.offset.map(String.init) ?? "nil"))"
        }
    }
}

/// The byte-level decoder against the tree-based one it replaced (kept under
/// Reference/): the same `Record`, `NewEvent` or `EventError` (kind, member,
/// rule and offset) on every line.
@Suite("The fast decoder agrees with the reference decoder")
struct AgreementTests {
    static func decodeRecord(_ line: [UInt8]) -> Outcome<Record> {
        Outcome(Result { () throws(EventError) -> Record in try LineCodec.decodeRecord(line) })
    }

    static func decodeNewEvent(_ line: [UInt8]) -> Outcome<NewEvent> {
        Outcome(Result { () throws(EventError) -> NewEvent in try LineCodec.decodeNewEvent(line) })
    }

    /// Checks both entry points (and, with `json`, the document parser) on one
    /// line; returns what `decodeRecord` made of it, nil when the decoders disagree.
    @discardableResult
    static func expectAgreement(_ line: [UInt8], json: Bool = true, _ label: @autoclosure () -> String) -> Outcome<Record>? {
        let record = decodeRecord(line)
        let expectedRecord = Outcome(ReferenceLineCodec.decodeRecord(line))
        let newEvent = decodeNewEvent(line)
        let expectedNewEvent = Outcome(ReferenceLineCodec.decodeNewEvent(line))
        var agree = record == expectedRecord && newEvent == expectedNewEvent && checkAgrees(line, record)
        #expect(record == expectedRecord, "decodeRecord, \(label()): \(String(decoding: line, as: UTF8.self))")
        #expect(newEvent == expectedNewEvent, "decodeNewEvent, \(label()): \(String(decoding: line, as: UTF8.self))")
        if json {
            let parsed = Outcome(line.withUnsafeBytes { b in Result { () throws(EventError) -> JSONValue in try JSONScanner.parse(b) } })
            let expectedJSON = Outcome(ReferenceLineCodec.parseJSON(line))
            agree = agree && parsed == expectedJSON
            #expect(parsed == expectedJSON, "JSONScanner.parse, \(label()): \(String(decoding: line, as: UTF8.self))")
        }
        return agree ? record : nil
    }

    /// `checkRecord` gives the same error as `decodeRecord`, or the same keys.
    static func checkAgrees(_ line: [UInt8], _ record: Outcome<Record>) -> Bool {
        let keys = line.withUnsafeBytes { b in Result { () throws(EventError) -> LineCodec.RecordKeys in try LineCodec.checkRecord(b) } }
        let agrees: Bool
        switch (keys, record) {
        case (.failure(let e), .error(let expected)):
            agrees = e == expected
        case (.success(let k), .value(let r)):
            var isNewer = false
            if case .newer = r { isNewer = true }
            let (id, prev) = line.withUnsafeBytes { (k.id.string(in: $0), k.prev.string(in: $0)) }
            agrees = k.seq == r.seq && id == r.id && k.isNewer == isNewer && prev == r.prev
        default:
            agrees = false
        }
        #expect(agrees, "checkRecord: \(keys) for \(record): \(String(decoding: line, as: UTF8.self))")
        return agrees
    }

    /// On a line that decodes, `peekUser` finds its user (byte for byte) or says it cannot tell; never another user.
    static func expectPeekAgrees(_ line: [UInt8], _ record: Record, _ label: @autoclosure () -> String) {
        line.withUnsafeBytes { b in
            let found = LineCodec.peekUser(b).map { String(decoding: UnsafeRawBufferPointer(rebasing: b[$0]), as: UTF8.self) }
            if let found { #expect(record.user.map { found.utf8.elementsEqual($0.utf8) } == true, "peekUser, \(label())") }
            guard let user = record.user else { return }
            let same = LineCodec.peekUser(b, matches: user)
            let other = LineCodec.peekUser(b, matches: user + "x")
            #expect(same == (found == nil ? .unknown : .same), "peekUser same, \(label())")
            #expect(other == (found == nil ? .unknown : .other), "peekUser other, \(label())")
        }
    }

    @Test("every line of the bad-input corpus and every sample")
    func corpus() {
        let lines = BadInputTests.corpus.map(\.bytes) + Samples.cases.map { Array($0.line.utf8) }
        #expect(lines.count >= 119 + 13)
        for (k, line) in lines.enumerated() { Self.expectAgreement(line, "corpus line \(k + 1)") }
    }

    @Test("hand-picked edge cases", arguments: [
        #"{"v":1,"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"},"prev":"\#(Envelope.genesis)"}"#,
        #"{"\u0076":1,"s\u0065q":1,"id":"x","at":"2025-01-01T00:00:00Z","\u0075ser":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"},"prev":"\#(Envelope.genesis)"}"#,
        #"{"v":1,"v":1}"#, #"{"user":"a","\u0075ser":"b"}"#, #"{"K":1,"\u212A":2}"#, #"{"é":1,"e\u0301":2}"#,
        #"{"data":{"amount":1,"reason":"seed"},"type":"hints.granted","v":1,"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","prev":"\#(Envelope.genesis)"}"#,
        #"{"data":{"amount":1,"reason":"seed"},"type":"hint.used","v":1,"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","prev":"\#(Envelope.genesis)"}"#,
        #"{"data":{"answers":[{"question":"q","choice":0,"correct":true},{"question":"q","choice":1,"correct":false}],"content":"c","kind":"lesson","category":"m"},"type":"submission.made","at":"2025-01-01T00:00:00Z","user":"u"}"#,
        #"{"at":"2025-01-01T00:00:00Z","user":"u","type":"submission.made","data":{"content":"c","kind":"lesson","category":"m","answers":[1,{"question":"q"}]}}"#,
        #"{"at":"2025-01-01T00:00:00Z","user":"u\u0000","type":"quiz.finished","data":{"attempt":"a"}}"#,
        #"{"at":"2025-01-01T00:00:00Z","user":"u\u007f","type":"quiz.finished","data":{"attempt":"a"}}"#,
        #"{"at":"2025-01-01T00:00:00Z","user":"u","device":null,"type":"quiz.finished","data":{"attempt":"a","x":{"y":[1,{"z":null}]}}}"#,
        #"{"at":"2025-01-01T00:00:00Z","user":"u","type":"quiz.finished","data":{"attempt":"a"},"seq":null}"#,
        #"{"v":2,"seq":3,"id":"n","prev":"\#(Envelope.genesis)","user":"\u0075","type":1,"data":[{"a":1,"a":2}]}"#,
        #"{"v":2,"seq":3,"id":"n","prev":"\#(Envelope.genesis)","data":{"a":1,"a":2}}"#,
        #"{"v":1,"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"},"prev":"\#(Envelope.genesis)"} "#,
        #" {"v":1} x"#, "[1,2", "\"abc\"", "", " ", "\u{FEFF}{}", "{\"a\":\"\r\"}", "{\"a\":\"\n\"}", #"{"a":"\ud800"}"#, #"{"a":"\ud800\u0041"}"#,
        #"{"a":"\udc00"}"#, #"{"a":"\u12"}"#, #"{"a":"\x"}"#, #"{"a":01}"#, #"{"a":-}"#, #"{"a":1.}"#, #"{"a":1e}"#, #"{"a":tru}"#,
        #"{"a":1,}"#, #"{"a" 1}"#, #"{a:1}"#, #"{"a":1"#, #"{"a":"#, #"{"a""#, #"{"#, #"{"a":[1,]}"#, #"{"a":[1 2]}"#,
        // Traps for the writer-order tokens: a comma where none may be, none where one must be, spaces around colons.
        #"{,"v":1,"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"},"prev":"\#(Envelope.genesis)"}"#,
        #"{"x":1"v":1,"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"},"prev":"\#(Envelope.genesis)"}"#,
        #"{"v":1"seq":1,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"},"prev":"\#(Envelope.genesis)"}"#,
        #"{"v":1,"seq": 1,"id" :"x","at":  "2025-01-01T00:00:00Z","user":"u","type":"hints.granted","data":{"amount": 1 ,"reason":"seed"},"prev":"\#(Envelope.genesis)"}"#,
        #"{"v":1,"seq":1,"seq":2,"id":"x","at":"2025-01-01T00:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"amount": 2,"reason":"seed"},"prev":"\#(Envelope.genesis)"}"#,
        #"{"at":"2025-01-01T00:00:00Z","user":"u","type":"submission.made","data":{"content":"c","kind":"lesson","category":"m","answers":[{,"question":"q","choice":0,"correct":true}]}}"#,
        #"{"at":"2025-01-01T00:00:00Z","user":"u","type":"submission.made","data":{"content":"c","kind":"lesson","category":"m","answers":[{"question":"q","choice":0,"question":"r","correct":true}]}}"#,
        #"{"at":"2025-01-01T00:00:00Z","user":"u","type":"answer.selected","data":{"attempt":"a","question":"q","choice":0,"correct":true,"ms":5,"skill":"s","correct_choice":1}}"#,
    ])
    func edgeCases(_ line: String) {
        Self.expectAgreement(Array(line.utf8), "edge case")
    }

    @Test("invalid UTF-8 and CR anywhere, before or after a JSON error")
    func lineChecksComeFirst() {
        let valid = Array(Samples.cases[0].line.utf8)
        for bad: [UInt8] in [[0x0D], [0xFF], [0xC2], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
            for at in stride(from: 0, through: valid.count, by: 7) {
                var line = valid
                line.insert(contentsOf: bad, at: at)
                Self.expectAgreement(line, "insert \(bad) at \(at)")
                line.insert(UInt8(ascii: "}"), at: min(line.count, 3))
                Self.expectAgreement(line, "insert \(bad) at \(at) after a syntax error")
            }
        }
    }

    @Test("seeded random lines, valid and not", arguments: [1, 2, 3, 4] as [UInt64])
    func randomLines(seed: UInt64) {
        var fuzzer = LineFuzzer(seed: seed)
        var decoded = 0
        for seq in 1...1_500 {
            let line = fuzzer.line(seq: seq)
            guard let outcome = Self.expectAgreement(line, "seed \(seed) line \(seq)") else { return }
            if case .value(let record) = outcome {
                decoded += 1
                Self.expectPeekAgrees(line, record, "seed \(seed) line \(seq)")
            }
        }
        // The generator must make both kinds, or the test proves little.
        #expect(decoded > 300)
        #expect(decoded < 1_400)
    }

    /// 8 × 12,500 = 100,000 mutated lines, one to three byte edits each.
    @Test("seeded byte mutations of random lines", arguments: Array(0..<8) as [UInt64])
    func mutations(seed: UInt64) {
        var fuzzer = LineFuzzer(seed: 1_000 + seed)
        var failures = 0
        var kinds = Set<EventError.Kind>()
        var decoded = 0
        // 500 random lines, 25 mutations of each (making lines costs more than mutating them).
        let bases = (1...500).map { fuzzer.line(seq: $0) }
        for k in 0..<12_500 {
            let line = fuzzer.mutate(bases[k / 25])
            // The document parser is the same scanner: every fourth line is enough for it.
            guard let outcome = Self.expectAgreement(line, json: k % 4 == 0, "seed \(seed) mutation \(k)") else {
                failures += 1
                if failures > 5 { return }
                continue
            }
            switch outcome {
            case .error(let e): kinds.insert(e.kind)
            case .value(let record): decoded += 1; Self.expectPeekAgrees(line, record, "seed \(seed) mutation \(k)")
            }
        }
        // Mutations reach every stage: JSON, the line checks, the envelope and the data rules.
        #expect(kinds.isSuperset(of: [.notJSON, .encoding, .lineEnding, .invalidEnvelope, .invalidData, .duplicateMember]), "\(kinds)")
        #expect(decoded > 100)
    }

    @Test("integer literals read as Int(_:) reads them, at every length and at the limits")
    func integers() {
        var random = SeededGenerator(seed: 0x1A7)
        var literals = ["0", "-0", "1", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                        "-9223372036854775809", "99999999999999999999", "000000000000000000001", "-", "1-", "12a"]
        for digits in 1...21 {
            for _ in 0..<20 {
                let text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
                literals += [text, "-" + text]
            }
            literals += [String(repeating: "9", count: digits), "-" + String(repeating: "9", count: digits)]
        }
        for literal in literals {
            let read = Array(literal.utf8).withUnsafeBytes { FieldRules.integer($0) }
            #expect(read == Int(literal), "\(literal)")
        }
    }

    @Test("peekUser finds the top-level user, never one in data or in a string", arguments: [
        (#"{"v":1,"user":"u-1","data":{"user":"u-2"}}"#, "u-1"),
        (#"{"data":{"user":"u-2","x":"}\"user\":\"u-3"},"user":"u-1"}"#, "u-1"),
        (#"{"id":"\"user\":\"u-2\"","user":"u-1"}"#, "u-1"),
        (#"{"data":[{"user":"u-2"},"]}"],"user" : "u-1"}"#, "u-1"),
        (#"{ "user":"é-1" }"#, "é-1"),
    ] as [(String, String)])
    func peekUserFinds(line: String, user: String) {
        let bytes = Array(line.utf8)
        bytes.withUnsafeBytes { b in
            #expect(LineCodec.peekUser(b).map { String(decoding: UnsafeRawBufferPointer(rebasing: b[$0]), as: UTF8.self) } == user)
            #expect(LineCodec.peekUser(b, matches: user) == .same)
            #expect(LineCodec.peekUser(b, matches: "u-2") == .other)
        }
    }

    @Test("peekUser cannot tell for an escaped name or value, and compares bytes exactly", arguments: [
        (#"{"\u0075ser":"u-1"}"#, "u-1", LineCodec.UserMatch.unknown),
        (#"{"user":"u\u002d1"}"#, "u-1", .unknown),
        (#"{"data":{"user":"u-1"}}"#, "u-1", .unknown),
        (#"[{"user":"u-1"}]"#, "u-1", .unknown),
        (#"{"user":"\#u{212A}"}"#, "K", .other),
        (#"{"user":"e\#u{301}"}"#, "\u{E9}", .other),
        (#"{"user":"e\#u{301}"}"#, "e\u{301}", .same),
        (#"{"user":"e\#u{301}"}"#, "e", .other),
    ] as [(String, String, LineCodec.UserMatch)])
    func peekUserUnknown(line: String, user: String, expected: LineCodec.UserMatch) {
        Array(line.utf8).withUnsafeBytes { b in #expect(LineCodec.peekUser(b, matches: user) == expected) }
    }

    @Test("the byte tables name every member and value exactly as the types spell them")
    func names() {
        func bytes<T>(_ s: String, _ body: (UnsafeRawBufferPointer) -> T) -> T { Array(s.utf8).withUnsafeBytes(body) }
        for m in DataMember.allCases {
            #expect(bytes(m.rawValue) { DataMember($0) } == m)
            #expect(bytes(m.rawValue + "x") { DataMember($0) } == nil)
            #expect(bytes(String(m.rawValue.dropLast()) + "_") { DataMember($0) } == nil)
        }
        for t in EventType.allCases {
            #expect(bytes(t.rawValue) { EventType(utf8: $0) } == t)
            #expect(bytes(t.rawValue.uppercased()) { EventType(utf8: $0) } == nil)
        }
        for k in HintUsed.Kind.allCases { #expect(bytes(k.rawValue) { HintUsed.Kind(utf8: $0) } == k) }
        for k in SubmissionMade.Kind.allCases { #expect(bytes(k.rawValue) { SubmissionMade.Kind(utf8: $0) } == k) }
        for r in HintsGranted.Reason.allCases { #expect(bytes(r.rawValue) { HintsGranted.Reason(utf8: $0) } == r) }
        for s in ProgressReset.Scope.allCases { #expect(bytes(s.rawValue) { ProgressReset.Scope(utf8: $0) } == s) }
        for name in ["v", "seq", "id", "at", "user", "device", "type", "data", "prev"] {
            #expect(bytes(name) { EnvelopeMember($0) }?.name == name)
        }
        // Every data member is some type's member, and every slot of a type is used once.
        for t in EventType.allCases {
            let slots = DataMember.allCases.compactMap { $0.slot(in: t) }
            #expect(Set(slots).count == slots.count)
            #expect(slots.allSatisfy { $0 < 9 })
        }
        #expect(DataMember.allCases.allSatisfy { m in EventType.allCases.contains { m.slot(in: $0) != nil } })
    }

    @Test("the encoder writes the same bytes as the reference encoder", arguments: [7, 8] as [UInt64])
    func encoderAgrees(seed: UInt64) {
        var fuzzer = LineFuzzer(seed: seed)
        var checked = 0
        for seq in 1...2_000 {
            var envelope = fuzzer.envelope(seq: seq)
            // Unknown members too, with every kind of value and names that need escapes.
            if fuzzer.chance(0.3) {
                let extra = [JSONMember("x-\"\\\u{1}", fuzzer.oddValue()), JSONMember("n", .array([.null, .bool(true), .number("-1.5e3"), .object([JSONMember("a", .string("\u{7F}\n"))])]))]
                switch envelope.event {
                case .quizStarted(var e): e.extra = extra; envelope.event = .quizStarted(e)
                case .answerSelected(var e): e.extra = extra; envelope.event = .answerSelected(e)
                case .submissionMade(var e):
                    e.extra = extra
                    if !e.answers.isEmpty { e.answers[0].extra = extra }
                    envelope.event = .submissionMade(e)
                case .progressReset(var e): e.extra = extra; envelope.event = .progressReset(e)
                default: break
                }
            }
            if fuzzer.chance(0.1) { envelope.seq = fuzzer.pick([Int.max, Int.min, -1, 0, 9, 10, 99, 100, 1_000_000_007]) }
            let line = LineCodec.encode(envelope)
            #expect(line == ReferenceLineCodec.encode(envelope), "seed \(seed) envelope \(seq): \(String(decoding: line, as: UTF8.self))")
            checked += 1
        }
        #expect(checked == 2_000)
    }

    @Test("the encoder falls back when escapes outgrow its buffer, with the same bytes")
    func encoderFallback() throws {
        let controls = String(repeating: "\u{1}\"", count: 128)
        let envelope = Envelope(seq: 1, id: "e-1", at: ts("2025-10-21T08:15:00Z"), user: "u",
                                event: .quizFinished(AttemptEnded(attempt: controls)), prev: Envelope.genesis)
        let line = LineCodec.encode(envelope)
        #expect(line.count > 256 * 4)
        #expect(line == ReferenceLineCodec.encode(envelope))
        #expect(try LineCodec.decodeRecord(line) == .v1(envelope))
        #expect(LineWriter.encode(envelope) == nil, "the fast path must have given up on this one")
    }
}
