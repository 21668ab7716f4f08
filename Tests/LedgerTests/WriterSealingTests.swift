import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// The writer's fast path: each event encoded and checked once, its line
/// sealed under the lock by copying bytes, the chain kept in place. Its lines,
/// refusals and results must be exactly what encoding each envelope (and
/// decoding it to validate) gave.
@Suite("Writer: lines sealed from checked templates")
struct WriterSealingTests {
    // MARK: - Random events

    /// Strings that need escapes or are not ASCII.
    static func text(_ g: inout SplitMix64) -> String {
        let pieces = ["a", "Zz", "0", "-", "\"", "\\", "/", "é", "中", "𝄞", " ", "\u{2028}", "\t", "\n", "\u{1}", "\u{7F}", "q"]
        return (0..<Int.random(in: 1...12, using: &g)).map { _ in pieces.randomElement(using: &g) ?? "a" }.joined()
    }

    static func event(_ g: inout SplitMix64, id: String?) -> NewEvent {
        let at = try? Timestamp(parsing: ["2025-10-21T08:15:00+03:00", "2026-01-01T00:00:00.123456789Z", "1999-12-31T23:59:59.5-08:00"]
            .randomElement(using: &g) ?? "")
        let user = ["u-1", "learner é", "中文", String(repeating: "u", count: 128)].randomElement(using: &g) ?? "u"
        let extra: [JSONMember] = Bool.random(using: &g) ? [] : [JSONMember("x-note", .string(text(&g))), JSONMember("x-n", .number("-0.5e-3"))]
        let event: Event
        switch Int.random(in: 0..<6, using: &g) {
        case 0: event = .quizStarted(QuizStarted(attempt: text(&g), quiz: text(&g), questions: Int.random(in: 1...50, using: &g),
                                                 daily: Bool.random(using: &g), title: text(&g), extra: extra))
        case 1: event = .answerSelected(AnswerSelected(attempt: text(&g), question: text(&g), choice: Int.random(in: 0...(1 << 53) - 1, using: &g),
                                                       correct: Bool.random(using: &g), skill: Bool.random(using: &g) ? text(&g) : nil,
                                                       ms: Int.random(in: 0...100_000, using: &g)))
        case 2: event = .quizFinished(AttemptEnded(attempt: text(&g), extra: extra))
        case 3: event = .puzzleCompleted(PuzzlePlayed(puzzle: text(&g), encoding: "rle", seconds: Seconds(literal: "12.75")))
        case 4:
            let answers = (0..<Int.random(in: 0...5, using: &g)).map {
                SubmissionMade.Answer(question: "q\($0)", choice: $0, correct: true, skill: text(&g), extra: $0 == 1 ? extra : [])
            }
            event = .submissionMade(SubmissionMade(content: text(&g), kind: .passage, category: text(&g), seconds: 30, answers: answers))
        default: event = .hintsGranted(HintsGranted(amount: Int.random(in: 1...9, using: &g), reason: .reward, extra: extra))
        }
        return NewEvent(id: id, at: at ?? Timestamp(instant: Instant(seconds: 0, nanoseconds: 0), offsetMinutes: 0), user: user,
                        device: ["dev-1", "dev é \"x\"", "中-dev", nil].randomElement(using: &g) ?? nil, event: event)
    }

    @Test("every line is the encoder's line of its envelope", arguments: [11, 12] as [UInt64])
    func randomBatchesAreTheEncodersLines(seed: UInt64) throws {
        let dir = try TempDir("sealing")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        var g = SplitMix64(seed: seed)
        let writer = try LedgerWriter(path: log)
        var known: [String: Int] = [:]
        var originals: [String: NewEvent] = [:]
        var next = 1
        for b in 0..<40 {
            var events: [NewEvent] = []
            var expected: [(id: String?, seq: Int?)] = []
            var batchIDs: Set<String> = []
            for k in 0..<Int.random(in: 1...30, using: &g) {
                if !known.isEmpty, Int.random(in: 0..<8, using: &g) == 0,
                   let old = known.keys.sorted().randomElement(using: &g), !batchIDs.contains(old) {
                    _ = Self.event(&g, id: old)
                    events.append(originals[old] ?? Self.event(&g, id: old))  // already in the log, the same event: not written again
                    expected.append((old, known[old]))
                    batchIDs.insert(old)
                } else {
                    let id: String? = Int.random(in: 0..<5, using: &g) == 0 ? nil : "b\(b)-\(k)"
                    events.append(Self.event(&g, id: id))
                    expected.append((id, nil))
                    if let id { batchIDs.insert(id) }
                }
            }
            let results = try writer.append(events, durability: .deferred)
            #expect(results.count == events.count)
            for (r, e) in zip(results, expected) {
                if let seq = e.seq {
                    #expect(r.status == .alreadyPresent && r.seq == seq && r.id == e.id && r.envelope == nil)
                } else {
                    #expect(r.status == .appended && r.seq == next)
                    if let id = e.id { #expect(r.id == id) } else { #expect(r.id.count == 36) }
                    known[r.id] = r.seq
                    next += 1
                }
            }
            for (r, event) in zip(results, events) where r.status == .appended {
                var original = event
                original.id = r.id
                originals[r.id] = original
            }
            // Each appended line is the encoder's line of the envelope the result carries, after the line before.
            let lines = try Files.lines(log)
            for (r, event) in zip(results, events) where r.status == .appended {
                let envelope = try #require(r.envelope)
                #expect(envelope == event.sealed(seq: r.seq, id: r.id, prev: envelope.prev))
                #expect(lines[r.seq - 1] == LineCodec.encode(envelope))
                #expect(envelope.prev == (r.seq == 1 ? Envelope.genesis : SHA256.hash(lines[r.seq - 2]).hex))
            }
        }
        try writer.sync()
        let report = try verify(path: log)
        #expect(report.isOK && report.events == next - 1)
        #expect(report.head == writer.head)
        #expect(try pythonCheck(log).status == 0)
        #expect(try LedgerWriter(path: log).head == writer.head)
    }

    // MARK: - Refusals

    /// What the writer refused before (it encoded the event at seq 1 and decoded the line).
    static func decoderError(_ e: NewEvent, id: String) -> EventError? {
        do { _ = try LineCodec.decodeRecord(LineCodec.encode(e.sealed(seq: 1, id: id, prev: Envelope.genesis))) } catch { return error }
        return nil
    }

    @Test func refusalsAreTheDecodersErrorsWordForWord() throws {
        let dir = try TempDir("sealing")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...2))
        let before = try Files.bytes(log)
        let base = try Make.answer("bad")
        func with(_ change: (inout NewEvent) -> Void) -> NewEvent { var e = base; change(&e); return e }
        func data(_ event: Event) -> NewEvent { with { $0.event = event } }
        let bad: [NewEvent] = [
            with { $0.user = "" },
            with { $0.user = String(repeating: "é", count: 129) },
            with { $0.user = "tab\there" },
            with { $0.device = "\u{85}" },
            with { $0.id = "has space" },
            with { $0.id = String(repeating: "x", count: 65) },
            with { $0.at = Timestamp(instant: Instant(seconds: 253_402_300_800, nanoseconds: 0), offsetMinutes: 0) },  // year 10000
            data(.quizStarted(QuizStarted(attempt: "a", quiz: "q", questions: 0))),
            data(.quizStarted(QuizStarted(attempt: "a", quiz: "q", questions: 3, extra: [JSONMember("quiz", .string("again"))]))),
            data(.answerSelected(AnswerSelected(attempt: "a", question: "", choice: 1, correct: true))),
            data(.answerSelected(AnswerSelected(attempt: "a", question: "q", choice: -1, correct: true))),
            data(.answerSelected(AnswerSelected(attempt: String(repeating: "a", count: 257), question: "q", choice: 1, correct: true))),
            data(.puzzleCompleted(PuzzlePlayed(puzzle: "p", encoding: "e", seconds: nil))),
            data(.puzzleCompleted(PuzzlePlayed(puzzle: "p", encoding: "e", seconds: Seconds(literal: "0x10")))),
            data(.submissionMade(SubmissionMade(content: "c", kind: .lesson, category: "k", answers: [
                SubmissionMade.Answer(question: "\u{E9}", choice: 0, correct: true),
                SubmissionMade.Answer(question: "\u{E9}", choice: 1, correct: false),  // the same question (by code points)
            ]))),
            data(.hintsGranted(HintsGranted(amount: 0, reason: .seed))),
        ]
        for event in bad {
            let id = event.id ?? ""
            let expected = try #require(Self.decoderError(event, id: id), "\(event)")
            let error = #expect(throws: LedgerError.self) { try writer.append([try Make.answer("fine"), event]) }
            #expect(error?.code == .invalidEvent)
            #expect(error?.eventIndex == 1)
            if case .event(let e)? = error?.cause { #expect(e == expected) } else { Issue.record("no event cause: \(String(describing: error))") }
            #expect(error?.description == "\(log): event 2 of 2 (id \"\(id)\") is refused, nothing of its batch was written: "
                    + "\(expected.kind.rawValue): \(expected.message)")
            #expect(try Files.bytes(log) == before)
        }
        #expect(writer.isUsable)
        #expect(try writer.append(try Make.answer("fine")).seq == 3)
    }

    @Test func repeatsWithinALargeBatchNameTheFirst() throws {
        let dir = try TempDir("sealing")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...1, prefix: "r-"))
        var batch = try Make.answers(1...300, prefix: "r-")
        batch[249].id = "r-17"
        let error = #expect(throws: LedgerError.self) { try writer.append(batch) }
        #expect(error?.code == .conflictingDuplicate)
        #expect(error?.description == "\(log): event 250 of 300 (id \"r-17\") is refused, nothing of its batch was written: "
                + "conflicting_duplicate: id \"r-17\" is already used by event 17 of this batch with different content")
        // An id already in the log, twice in a batch with different content: named against the batch's first.
        var twiceBatch = try Make.answers([5, 1, 1], prefix: "r-")
        twiceBatch[2] = try Make.answer("r-1", question: 9)
        let twice = #expect(throws: LedgerError.self) { try writer.append(twiceBatch) }
        #expect(twice?.message.hasSuffix("id \"r-1\" is already used by event 2 of this batch with different content") == true)
        #expect(try verify(path: log).events == 1)
        // Two thousand distinct ids (a table that had to be larger) go in, the known one reported.
        let results = try writer.append(try Make.answers(1...2000, prefix: "r-"))
        #expect(results.first?.status == .alreadyPresent && results.dropFirst().allSatisfy { $0.status == .appended })
        #expect(results.last?.seq == 2000)
    }

    /// A submission whose line at seq 1 is exactly `length` bytes.
    static func submission(lineLength length: Int, id: String) throws -> NewEvent {
        func make(_ answers: [SubmissionMade.Answer], _ content: String) throws -> NewEvent {
            try Make.event(#"{"id":"\#(id)","at":"2025-10-21T08:15:00+03:00","user":"u-1","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#)
                .with(.submissionMade(SubmissionMade(content: content, kind: .lesson, category: "k", answers: answers)))
        }
        func size(_ e: NewEvent) -> Int { LineCodec.encode(e.sealed(seq: 1, id: id, prev: Envelope.genesis)).count }
        var answers: [SubmissionMade.Answer] = []
        var predicted = size(try make([], "c"))
        while true {
            let extra = #"{"question":"q\#(answers.count)","choice":0,"correct":true}"#.utf8.count + (answers.isEmpty ? 0 : 1)
            if predicted + extra > length - 100 { break }
            answers.append(SubmissionMade.Answer(question: "q\(answers.count)", choice: 0, correct: true))
            predicted += extra
        }
        let short = size(try make(answers, "c"))
        let event = try make(answers, "c" + String(repeating: "x", count: length - short))
        #expect(size(event) == length)
        return event
    }

    @Test func aLineTooLongAtItsRealSeqIsRefusedAsBefore() throws {
        let dir = try TempDir("sealing")
        defer { dir.cleanup() }
        let max = LineCodec.maxLineLength
        let big = try Self.submission(lineLength: max, id: "big")

        // At seq 10 the line has one digit more than at seq 1: one byte too many.
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...9))
        let before = try Files.bytes(log)
        let error = #expect(throws: LedgerError.self) { try writer.append([try Make.answer("e-10"), big]) }
        #expect(error?.description == "\(log): event 2 of 2 (id \"big\") is refused, nothing of its batch was written: "
                + "line_too_long: the event's line would be \(max + 1) bytes; at most \(max) are allowed")
        #expect(error?.eventIndex == 1)
        #expect(try Files.bytes(log) == before)

        // Already too long at seq 1: the decoder's words.
        let bigger = try Self.submission(lineLength: max + 1, id: "bigger")
        let first = #expect(throws: LedgerError.self) { try writer.append(bigger) }
        #expect(first?.message.hasSuffix("line_too_long: the line is \(max + 1) bytes; at most \(max) are allowed") == true)

        // As the first line of a log it fits exactly.
        let fresh = dir.file("b.log")
        #expect(try LedgerWriter(path: fresh).append(big).seq == 1)
        #expect(try Files.lines(fresh).first?.count == max)
        #expect(try verify(path: fresh).isOK)
    }

    // MARK: - Results

    @Test func resultsCompareByTheirEnvelope() throws {
        let dir = try TempDir("sealing")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        let results = try writer.append(try Make.answers(1...3))
        var records: [Envelope] = []
        try LogReader(path: log).read { if case .event(let e) = $0 { records.append(e) } }
        for (r, e) in zip(results, records) {
            let explicit = AppendResult(id: e.id, seq: e.seq, status: .appended, envelope: e)
            #expect(r == explicit)
            #expect(r.hashValue == explicit.hashValue)
            #expect(Set([r, explicit]).count == 1)
        }
        #expect(results[0] != results[1])
        var changed = results[2]
        changed.envelope = nil
        #expect(changed.envelope == nil && changed != results[2])
        changed.envelope = records[2]
        #expect(changed == results[2])
    }

    @Test func writeHexIsHex() {
        var g = SplitMix64(seed: 3)
        for n in 0..<500 {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
            let digest = SHA256.hash(bytes)
            var out = [UInt8](repeating: 0, count: 64)
            out.withUnsafeMutableBufferPointer { digest.writeHex(to: $0.baseAddress!) }
            #expect(String(decoding: out, as: UTF8.self) == digest.hex)
        }
        var zero = [UInt8](repeating: 1, count: 64)
        zero.withUnsafeMutableBufferPointer { SHA256.Digest.zero.writeHex(to: $0.baseAddress!) }
        #expect(String(decoding: zero, as: UTF8.self) == Envelope.genesis)
    }
}

extension NewEvent {
    /// The same envelope with another event.
    func with(_ event: Event) -> NewEvent { var e = self; e.event = event; return e }
}
