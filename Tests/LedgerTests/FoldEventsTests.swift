@testable import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// The report's read of a log (`LogReader.readFoldEvents`): each event's
/// `FoldEvent` read from the second stage's captures where the line is the
/// writer's and plainly valid, else made from the record. Held against each
/// line decoded whole by itself (the decoder's full rules, the payload
/// built, `FoldEvent.make`), on a demo log and on variants of its lines that
/// take the other paths (escapes, long text, members left out or null, a
/// space the writer never writes) or break a rule.
@Suite("Fold events: the report's read, from captures, as from each record decoded whole")
struct FoldEventsTests {
    /// What a fold event holds, comparable.
    struct Value: Equatable, CustomStringConvertible {
        var seq: Int, type: EventType, day: Day, questions: Int, daily: Bool, correct: Bool
        var payload: Event?
        var user: [UInt8], attempt: [UInt8], question: [UInt8], skill: [UInt8]?
        /// A submission's answers as the report reads them (``FoldEvent/View/forEachAnswer(_:)``):
        /// whether each is right and its skill's bytes; its payload is not compared (nil when read in place).
        var answers: [Answer] = []

        struct Answer: Equatable {
            var correct: Bool, skill: [UInt8]?
        }

        init(_ e: FoldEvent) {
            self = e.withView { Value($0) }
        }

        init(_ v: FoldEvent.View) {
            (seq, type, day, questions, daily, correct, payload, user, attempt, question, skill) =
                (v.seq, v.type, v.day, v.questions, v.daily, v.correct, v.payload,
                 Array(v.user), Array(v.attempt), Array(v.question), v.skill.map { Array($0) })
            var answers: [Answer] = []
            v.forEachAnswer { answers.append(Answer(correct: $0, skill: $1.map { Array($0) })) }
            self.answers = answers
            if type == .submissionMade { payload = nil }
        }

        var description: String {
            "\(seq) \(type) \(day) q=\(questions) daily=\(daily) correct=\(correct) payload=\(payload.map { "\($0)" } ?? "nil") "
                + "user=\(String(decoding: user, as: UTF8.self)) attempt=\(String(decoding: attempt, as: UTF8.self)) "
                + "question=\(String(decoding: question, as: UTF8.self)) skill=\(skill.map { String(decoding: $0, as: UTF8.self) } ?? "nil")"
                + " answers=\(answers.map { "\($0.correct):\($0.skill.map { String(decoding: $0, as: UTF8.self) } ?? "nil")" })"
        }
    }

    /// The event of a line decoded whole by itself (nil for a newer-version line).
    static func expected(_ line: [UInt8]) throws -> Value? {
        guard case .event(let e) = try LineCodec.decodeRecord(line) else { return nil }
        return Value(FoldEvent.make(e))
    }

    @Test("readFoldEvents: every event of a demo log, as made from its record decoded whole", arguments: [(3, 4), (40, 20)])
    func demoLog(users: Int, days: Int) throws {
        let dir = try TempDir("fold-events")
        defer { dir.cleanup() }
        let (path, lines) = try KeptRecordsTests.demo(dir, users: users, days: days)
        var events: [Value] = []
        let summary = try LogReader(path: path).readFoldEvents { events.append(Value($0)) }.summary
        #expect(summary.events == lines.count)
        let whole = try lines.compactMap { try Self.expected($0) }
        #expect(events.count == whole.count)
        for (got, want) in zip(events, whole) where got != want {
            Issue.record("\(got)\nis not\n\(want)")
            break
        }
        // The demo has answers with and without skills, daily quizzes and others.
        #expect(events.contains { $0.type == .answerSelected && $0.skill != nil })
        #expect(events.contains { $0.type == .quizStarted && $0.daily } && events.contains { $0.type == .quizStarted && !$0.daily })
    }

    /// Rewrites of a writer's line: each takes another path through the
    /// check (or breaks a rule), and must give what decoding it whole gives.
    static let variants: [(String, @Sendable (String) -> String)] = [
        ("attempt escaped", { $0.replacingOccurrences(of: #""attempt":"a-"#, with: #""attempt":"\u0061-"#) }),
        ("question escaped", { $0.replacingOccurrences(of: #""question":"q"#, with: #""question":"\u0071"#) }),
        ("user escaped", { $0.replacingOccurrences(of: #""user":"u-"#, with: #""user":"\u0075-"#) }),
        ("long user (text past 64 bytes)", { $0.replacingOccurrences(of: #""user":"u-"#, with: #""user":"u-"# + String(repeating: "é", count: 40)) }),
        ("long attempt and question", {
            $0.replacingOccurrences(of: #""attempt":"a-"#, with: #""attempt":"a-"# + String(repeating: "x", count: 50))
                .replacingOccurrences(of: #""question":"q"#, with: #""question":"q"# + String(repeating: "y", count: 50))
        }),
        ("skill left out", { $0.replacingOccurrences(of: #","skill":"[a-z_]*""#, with: "", options: .regularExpression) }),
        ("skill null", { $0.replacingOccurrences(of: #","skill":"[a-z_]*""#, with: #","skill":null"#, options: .regularExpression) }),
        ("daily left out", { $0.replacingOccurrences(of: #","daily":true"#, with: "") }),
        ("daily false", { $0.replacingOccurrences(of: #","daily":true"#, with: #","daily":false"#) }),
        ("daily null", { $0.replacingOccurrences(of: #","daily":true"#, with: #","daily":null"#) }),
        ("a space the writer never writes", { $0.replacingOccurrences(of: #""data":{"#, with: #""data": {"#) }),
        ("members in another order", { $0.replacingOccurrences(of: #"{"v":1,"seq":"#, with: #"{"seq":"#).replacingOccurrences(of: #","id":"#, with: #","v":1,"id":"#) }),
        ("an unknown data member", { $0.replacingOccurrences(of: #""data":{"#, with: #""data":{"zz":1,"#) }),
        ("questions 0 (breaks a rule)", { $0.replacingOccurrences(of: #""questions":"#, with: #""questions":0,"x":"#) }),
        ("correct a string (breaks a rule)", { $0.replacingOccurrences(of: #""correct":true"#, with: #""correct":"true""#) }),
        ("attempt empty (breaks a rule)", { $0.replacingOccurrences(of: #""attempt":"a-[0-9]*""#, with: #""attempt":"""#, options: .regularExpression) }),
        ("at broken (breaks an envelope rule)", { $0.replacingOccurrences(of: #""at":"2025-"#, with: #""at":"2025-13-"#) }),
    ]

    /// `check` of the line's bytes, its error as a value.
    static func checked<T>(_ line: [UInt8], _ check: (UnsafeRawBufferPointer) throws(EventError) -> T) -> Result<T, EventError> {
        line.withUnsafeBytes { raw in
            do throws(EventError) { return .success(try check(raw)) } catch { return .failure(error) }
        }
    }

    @Test("each line and its variants: the same keys, event and error as decoding it whole")
    func variantsOfLines() throws {
        let dir = try TempDir("fold-events")
        defer { dir.cleanup() }
        let (_, lines) = try KeptRecordsTests.demo(dir, users: 6, days: 6)
        var changed = 0, failed = 0
        for bytes in lines {
            let text = String(decoding: bytes, as: UTF8.self)
            let asWritten: [(String, @Sendable (String) -> String)] = [("as written", { $0 })]
            for (name, rewrite) in asWritten + Self.variants {
                let line = Array(rewrite(text).utf8)
                if name != "as written", line == bytes { continue }
                changed += 1
                let want = Self.checked(line) { (raw) throws(EventError) in try LineCodec.checkRecord(raw) }
                // The view's ids may be bytes of `raw`: read them while it is there.
                let got = Self.checked(line) { (raw) throws(EventError) in
                    let (keys, event) = try LineCodec.checkFoldEvent(raw)
                    return (keys, event.map(Value.init))
                }
                switch (got, want) {
                case (.success(let (keys, event)), .success(let wantKeys)):
                    #expect(keys == wantKeys, "\(name): \(String(decoding: line, as: UTF8.self))")
                    let wantEvent = try Self.expected(line)
                    #expect(event == wantEvent, "\(name): \(String(decoding: line, as: UTF8.self))")
                case (.failure(let error), .failure(let wantError)):
                    failed += 1
                    #expect(error.description == wantError.description, "\(name): \(String(decoding: line, as: UTF8.self))")
                default:
                    Issue.record("\(name): \(got) but decoding whole gives \(want): \(String(decoding: line, as: UTF8.self))")
                }
            }
        }
        #expect(changed > 4 * lines.count)
        #expect(failed > 0)
    }

    /// A line that is not plainly the writer's (an escape, a type read
    /// whole) is decoded, and its view holds its own text and event: it
    /// stays valid after its line's memory is gone and overwritten, where a
    /// writer's line's view reads its ids in the line itself.
    @Test("a decoded line's view holds its own text; a writer's line's view reads the line")
    func viewsOwnOrBorrow() throws {
        let dir = try TempDir("fold-events")
        defer { dir.cleanup() }
        let (_, lines) = try KeptRecordsTests.demo(dir, users: 6, days: 6)
        var owned = 0, borrowed = 0
        for bytes in lines {
            let text = String(decoding: bytes, as: UTF8.self)
            for rewrite in [{ (s: String) in s }, { $0.replacingOccurrences(of: #""user":"u-"#, with: #""user":"\u0075-"#) }] {
                let line = Array(rewrite(text).utf8)
                guard let want = try Self.expected(line) else { continue }
                var copy = line
                var inLine = false
                let view: FoldEvent.View? = try copy.withUnsafeMutableBytes { raw in
                    let view = try LineCodec.checkFoldEvent(UnsafeRawBufferPointer(raw)).event
                    if let view, let base = raw.baseAddress, let user = view.user.baseAddress {
                        inLine = user >= UnsafeRawPointer(base) && user < UnsafeRawPointer(base) + raw.count
                        #expect(Value(view) == want, "\(text)")
                    }
                    return view
                }
                if inLine {
                    borrowed += 1
                } else {
                    owned += 1
                    for i in copy.indices { copy[i] = 0x7A }    // the line's memory overwritten
                    copy = []                                   // and released
                    #expect(view.map(Value.init) == want, "\(text)")
                    #expect(view?.payload != nil || ![EventType.progressReset, .streakFreezeGranted, .streakPaused].contains(want.type))
                }
            }
        }
        #expect(owned > lines.count / 2, "escaped users and the types read whole are decoded")
        #expect(borrowed > lines.count / 2, "the writer's own lines are read where they are")
    }

    /// A `submission.made` line as the writer writes it is read in place
    /// (no payload built): its answers from their captures, in order, the
    /// skills as bytes of the line. Each must give the report what the
    /// owned view of the line decoded whole gives: several answers, skills
    /// given, left out and null, non-ASCII text, values that differ only by
    /// Unicode normalization (kept apart: bytes differ), and an escaped value
    /// (that line decoded whole).
    @Test("a submission's answers read in place are those of its view decoded whole")
    func submissionsInPlace() throws {
        let composed = "\u{E9}t\u{E9}", decomposed = "e\u{301}te\u{301}"
        // (user, answers' JSON, whether the line is read in place)
        let cases: [(String, String, Bool)] = [
            ("u-1", #"[{"question":"a","choice":1,"correct":true,"skill":"fractions"},{"question":"b","choice":0,"correct":false},{"question":"c","choice":2,"correct":true,"skill":null},{"question":"d","choice":3,"correct":false,"skill":"fractions"}]"#, true),
            ("u-1", "[]", true),
            ("u-\(composed)", #"[{"question":"\#(composed)","choice":1,"correct":true,"skill":"\#(composed)"},{"question":"\#(decomposed)","choice":1,"correct":false,"skill":"\#(decomposed)"},{"question":"日本","choice":0,"correct":true,"skill":"読解"}]"#, true),
            ("u-\(decomposed)", #"[{"question":"q1","choice":1,"correct":false,"skill":"\#(decomposed)"}]"#, true),
            ("u-2", #"[{"question":"a","choice":1,"correct":true,"skill":"fr\"ac"},{"question":"b\\","choice":1,"correct":false,"skill":"x"}]"#, false),
        ]
        var inPlace = 0
        for (k, (user, answers, readInPlace)) in cases.enumerated() {
            let event = try Make.event(#"{"id":"s-\#(k)","at":"2025-10-22T00:02:00-07:00","user":"\#(user)","type":"submission.made","data":{"content":"lesson-1","kind":"lesson","category":"math","answers":\#(answers)}}"#)
            let line = LineCodec.encode(event.sealed(seq: k + 1, id: "s-\(k)", prev: Envelope.genesis))
            guard case .event(let e) = try LineCodec.decodeRecord(line), case .submissionMade(let submission) = e.event else {
                Issue.record("not a submission: \(String(decoding: line, as: UTF8.self))")
                continue
            }
            var userText = e.user
            let want = userText.withUTF8 { Value(FoldEvent.View(owning: e, user: UnsafeRawBufferPointer($0))) }
            // The owned view's answers are the event's, in order.
            #expect(want.answers == submission.answers.map { Value.Answer(correct: $0.correct, skill: $0.skill.map { Array($0.utf8) }) })
            let (got, borrowed) = try line.withUnsafeBytes { raw in
                let view = try LineCodec.checkFoldEvent(raw).event
                return (view.map(Value.init), view?.payload == nil)
            }
            #expect(got == want, "\(String(decoding: line, as: UTF8.self))")
            #expect(borrowed == readInPlace, "\(String(decoding: line, as: UTF8.self))")
            if borrowed { inPlace += 1 }
        }
        #expect(inPlace == 4)
    }
}
