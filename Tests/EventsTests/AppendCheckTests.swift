import Simulation
import Testing
@testable import Events

/// `LineCodec.encodeChecked` (the writer's validation) against what it
/// replaces: encoding the event as the first line of a log and decoding that
/// line. Same line, or the same error (kind, member, rule, offset), on seeded
/// random events, valid and broken in every way the typed values allow; and
/// a `PendingLine` sealed at any seq after any hash is exactly the encoder's line.
@Suite("Append check: encode and check once")
struct AppendCheckTests {
    /// The former validation: encode at seq 1 after the genesis, decode.
    static func reference(_ e: NewEvent, id: String) -> Result<[UInt8], EventError> {
        let line = LineCodec.encode(e.sealed(seq: 1, id: id, prev: Envelope.genesis))
        do { _ = try LineCodec.decodeRecord(line) } catch { return .failure(error) }
        return .success(line)
    }

    /// A random event, then (often) one of its values broken or pushed to a limit.
    static func event(_ f: inout LineFuzzer) -> (NewEvent, String) {
        let envelope = f.envelope(seq: 1)
        var e = NewEvent(id: envelope.id, at: envelope.at, user: envelope.user, device: envelope.device, event: envelope.event)
        var id = envelope.id
        if f.chance(0.6) { mutate(&e, &id, &f) }
        if f.chance(0.15) { mutate(&e, &id, &f) }
        return (e, id)
    }

    static func mutate(_ e: inout NewEvent, _ id: inout String, _ f: inout LineFuzzer) {
        let long = String(repeating: "é", count: 256), tooLong = String(repeating: "x", count: 257)
        let texts = ["", long, tooLong, String(repeating: "中", count: 257), "a\u{85}b", "\u{1}", "\u{7F}", "ok\n\"\\", "e\u{301}"]
        switch f.int(0...14) {
        case 0: e.user = f.pick(["", String(repeating: "u", count: 128), String(repeating: "u", count: 129), "a\u{85}", "tab\t", "\u{9F}", "é", "\u{A0}"])
        case 1: e.device = f.pick(["", String(repeating: "d", count: 129), "d\u{1}", "dev", "\u{80}"])
        case 2: id = f.pick(["", "has space", String(repeating: "i", count: 64), String(repeating: "i", count: 65), "é", "a\"b", "ok.id_1:2-3"])
        case 3:
            // Timestamps made from instants: valid, or a year the format cannot write.
            let seconds: Int64 = f.pick([0, -62_167_219_200 - 86_400, 253_402_300_800, 1_761_000_000])
            e.at = Timestamp(instant: Instant(seconds: seconds, nanoseconds: 5), offsetMinutes: f.pick([0, 180, -1439, 5000]),
                             fractionDigits: f.int(0...9), zulu: f.chance(0.5))
        default:
            switch e.event {
            case .quizStarted(var d):
                switch f.int(0...3) {
                case 0: d.questions = f.pick([0, -1, 1, Int.max, Int.min])
                case 1: d.title = f.pick(texts)
                case 2: d.extra = [JSONMember(f.pick(["attempt", "quiz", "x", "questions"]), .number("1"))]
                default: d.attempt = f.pick(texts)
                }
                e.event = .quizStarted(d)
            case .answerSelected(var d):
                switch f.int(0...5) {
                case 0: d.choice = f.pick([-1, 0, Int.max])
                case 1: d.correctChoice = f.pick([-1, 0, nil])
                case 2: d.ms = f.pick([-1, 0, Int.min, nil])
                case 3: d.skill = f.pick(texts)
                case 4: d.item = f.pick(texts)
                default: d.question = f.pick(texts)
                }
                e.event = .answerSelected(d)
            case .hintUsed(var d):
                d.question = f.pick(texts)
                e.event = .hintUsed(d)
            case .quizFinished(var d):
                if f.chance(0.5) { d.attempt = f.pick(texts) } else { d.extra = [JSONMember("attempt", .string("x"))] }
                e.event = .quizFinished(d)
            case .quizAbandoned(var d):
                d.extra = [JSONMember(f.pick(["why", "attempt"]), .array([.null, .bool(true)]))]
                e.event = .quizAbandoned(d)
            case .puzzleCompleted(var d):
                d.seconds = f.chance(0.3) ? nil : Seconds(literal: f.pick(["0x10", "+5", ".5", "5.", "05", "1E5", "1e-3", "12.75", "7"]))
                e.event = .puzzleCompleted(d)
            case .puzzleFailed(var d):
                if f.chance(0.5) { d.seconds = Seconds(literal: f.pick(["0x1p3", "1e+2", "3"])) } else { d.encoding = f.pick(texts) }
                e.event = .puzzleFailed(d)
            case .submissionMade(var d):
                switch f.int(0...3) {
                case 0: d.seconds = f.pick([-1, 0, nil])
                case 1:
                    // Repeated questions, some only canonically equal (as `String`s compare).
                    d.answers = (0..<f.int(2...20)).map { SubmissionMade.Answer(question: "q\($0)", choice: 0, correct: true) }
                    d.answers.append(SubmissionMade.Answer(question: f.pick(["q1", "q0", "new"]), choice: 1, correct: false))
                    d.answers.append(SubmissionMade.Answer(question: f.pick(["\u{E9}", "e\u{301}"]), choice: 1, correct: false))
                    d.answers.append(SubmissionMade.Answer(question: f.pick(["\u{E9}", "e\u{301}", "x"]), choice: 1, correct: false))
                case 2: d.answers.append(SubmissionMade.Answer(question: "z", choice: f.pick([-1, 3]), correct: true,
                                                               extra: f.chance(0.5) ? [JSONMember("choice", .number("1"))] : []))
                default: d.category = f.pick(texts)
                }
                e.event = .submissionMade(d)
            case .hintsGranted(var d):
                d.amount = f.pick([0, -5, 1, 100])
                e.event = .hintsGranted(d)
            case .progressReset(var d):
                d.extra = [JSONMember("scope", .string("all"))]
                e.event = .progressReset(d)
            case .streakFreezeGranted(var d):
                d.amount = f.pick([0, -5, 1, 100])
                e.event = .streakFreezeGranted(d)
            case .streakPaused(var d):
                // Backdated, reversed, too long, out of the years a date can be written in, or fine.
                let day = e.at.day
                switch f.int(0...4) {
                case 0: d.from = day.adding(days: -1)
                case 1: d.to = d.from.adding(days: -1)
                case 2: d.to = d.from.adding(days: f.pick([89, 90]))
                case 3: d.to = Day(ordinal: f.pick([3_000_000, -800_000]))
                default: d.from = day
                }
                e.event = .streakPaused(d)
            }
        }
    }

    @Test("same line or same error as encode-then-decode", arguments: [1, 2, 3, 4] as [UInt64])
    func agreesWithEncodeThenDecode(seed: UInt64) throws {
        var f = LineFuzzer(seed: seed)
        var valid = 0, plain = 0, refused = 0
        for _ in 0..<1500 {
            let (e, id) = Self.event(&f)
            let expected = Self.reference(e, id: id)
            let got = Result { () throws(EventError) -> [UInt8] in try LineCodec.encodeChecked(e, id: id).template }
            #expect(got.map { String(decoding: $0, as: UTF8.self) } == expected.map { String(decoding: $0, as: UTF8.self) }, "\(e)")
            // The direct check never passes what the decoder refuses.
            if AppendCheck.isPlainlyValid(e, id: id) {
                plain += 1
                #expect((try? expected.get()) != nil, "passed by the direct check, refused by the decoder: \(e)")
            }
            if case .success = expected { valid += 1 } else { refused += 1 }
        }
        // Both paths ran: most valid events skip the decoder, and many events were refused.
        #expect(plain > valid / 2 && refused > 300, "valid \(valid), plainly valid \(plain), refused \(refused)")
    }

    @Test func seededEventsAreMostlyPlainlyValid() {
        // The events a writer usually gets: no extra members, ordinary strings.
        var f = LineFuzzer(seed: 9)
        for seq in 1...200 {
            var e = f.envelope(seq: seq)
            e.event = .answerSelected(AnswerSelected(attempt: "a-\(seq)", question: "q\(seq % 8)", choice: seq % 4, correct: true,
                                                     skill: "inference", ms: seq))
            let event = NewEvent(id: e.id, at: e.at, user: e.user, device: e.device, event: e.event)
            #expect(AppendCheck.isPlainlyValid(event, id: e.id))
        }
    }

    @Test("a sealed line is the encoder's line at that seq and prev", arguments: [5, 6] as [UInt64])
    func sealingIsEncoding(seed: UInt64) throws {
        var f = LineFuzzer(seed: seed)
        var g = SplitMix64(seed: seed)
        let seqs = [1, 2, 9, 10, 11, 99, 100, 12_345, 999_999, 1_000_000, Int.max]
        for k in 0..<800 {
            let envelope = f.envelope(seq: 1)
            let e = NewEvent(id: nil, at: envelope.at, user: envelope.user, device: envelope.device, event: envelope.event)
            let id = "id-\(k)"
            guard let pending = try? LineCodec.encodeChecked(e, id: id) else { continue }
            let seq = k < seqs.count ? seqs[k] : Int.random(in: 1...Int.max, using: &g)
            let prev = (0..<64).map { _ in "0123456789abcdef".randomElement(using: &g) ?? "0" }.map(String.init).joined()
            let expected = LineCodec.encode(e.sealed(seq: seq, id: id, prev: prev))
            #expect(pending.length(seq: seq) == expected.count)
            var line = [UInt8](repeating: 0xEE, count: pending.length(seq: seq))
            let prevAt = line.withUnsafeMutableBufferPointer { pending.write(seq: seq, to: $0.baseAddress!) }
            line.replaceSubrange(prevAt..<(prevAt + 64), with: Array(prev.utf8))
            #expect(line == expected, "seq \(seq): \(String(decoding: line, as: UTF8.self))")
        }
    }
}
