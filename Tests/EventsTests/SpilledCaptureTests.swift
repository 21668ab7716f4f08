import Foundation
import Testing
@testable import Events

/// The captures are plain values and what they do not hold (members a layout
/// does not define, a submission's answers, the envelope's first unknown
/// member) is kept beside the line's decoder (`Spilled`): each line's values are
/// its own, escaped names and values are read as written, and every error is
/// the one the format's reader gives. The expected values are written out by
/// hand from the lines below.
@Suite("What the captures spill: kept beside the line's decoder, never another line's")
struct SpilledCaptureTests {
    static let prev = Envelope.genesis

    /// A submission whose answers and `data` carry members the format does not define, `tag` in each.
    static func submission(_ tag: String, seq: Int) -> String {
        #"{"v":1,"seq":\#(seq),"id":"e-\#(seq)","at":"2025-10-22T11:00:00Z","user":"u-1","type":"submission.made","data":{"content":"p","kind":"passage","category":"reading","answers":[{"question":"q1","choice":1,"correct":true,"a\u0031":"\#(tag)-first"},{"question":"q2","choice":0,"correct":false},{"question":"q3","choice":2,"correct":true,"\u0062":"\#(tag)-third","c":[1]}],"x-\#(tag)":"d\u00e9"},"prev":"\#(prev)"}"#
    }

    static func record(_ line: String) throws -> Record { try LineCodec.decodeRecord(Array(line.utf8)) }

    /// verify's check of the line (the writer's walk and the second stage where they answer).
    static func check(_ line: String) throws(EventError) -> LineCodec.RecordKeys {
        try LineCodec.withBytes(Array(line.utf8)) { (b) throws(EventError) in try LineCodec.checkRecord(b) }
    }

    static func answers(_ line: String) throws -> SubmissionMade? {
        guard case .event(let e) = try record(line), case .submissionMade(let d) = e.event else { return nil }
        return d
    }

    @Test("each answer keeps its own extra members, escaped names and values decoded; data's its own")
    func itemsKeepTheirOwn() throws {
        let d = try #require(try Self.answers(Self.submission("one", seq: 1)))
        #expect(d.answers.map(\.question) == ["q1", "q2", "q3"])
        #expect(d.answers[0].extra == [JSONMember("a1", .string("one-first"))])
        #expect(d.answers[1].extra.isEmpty)
        #expect(d.answers[2].extra == [JSONMember("b", .string("one-third")), JSONMember("c", .array([.number("1")]))])
        #expect(d.extra == [JSONMember("x-one", .string("dé"))])
    }

    @Test("lines read one after another never see each other's spilled values", arguments: [true, false])
    func linesNotMixed(keysFirst: Bool) throws {
        // Read alternately with verify's check, so a value left over from one line would show on the next.
        let tags = ["alpha", "beta", "gamma", "delta"]
        for (k, tag) in tags.enumerated() {
            let line = Self.submission(tag, seq: k + 1)
            if keysFirst { _ = try Self.check(line) }
            let d = try #require(try Self.answers(line))
            #expect(d.answers[0].extra == [JSONMember("a1", .string("\(tag)-first"))])
            #expect(d.answers[2].extra.first == JSONMember("b", .string("\(tag)-third")))
            #expect(d.extra == [JSONMember("x-\(tag)", .string("dé"))])
            // A writer's line next, with no spilled value: nothing of the submission's is seen in it.
            let plain = #"{"v":1,"seq":1,"id":"p","at":"2025-10-22T11:00:00Z","user":"u-1","type":"quiz.finished","data":{"attempt":"a"},"prev":"\#(Self.prev)"}"#
            guard case .event(let e) = try Self.record(plain), case .quizFinished(let f) = e.event else {
                Issue.record("expected quiz.finished"); continue
            }
            #expect(f.extra.isEmpty)
        }
    }

    @Test("the first unknown envelope member is named as written, escapes decoded, whichever check reads it")
    func firstUnknownNamed() {
        let line = #"{"v":1,"seq":1,"id":"e","at":"2025-10-22T11:00:00Z","user":"u-1","z\u00e9":1,"type":"quiz.finished","data":{"attempt":"a"},"prev":"\#(Self.prev)","w":2}"#
        let bytes = Array(line.utf8)
        var errors: [EventError] = []
        do { _ = try LineCodec.decodeRecord(bytes) } catch { errors.append(error) }
        do { _ = try Self.check(line) } catch { errors.append(error) }
        #expect(errors.count == 2)
        for error in errors {
            #expect(error.kind == .invalidEnvelope)
            #expect(error.member == "zé")
            #expect(error.rule == "is not an envelope member (put extra members in data)")
        }
    }

    @Test("an answer's error names its place; a duplicate extra member is refused, escaped or not")
    func errorsUnchanged() {
        // The third answer's choice broken: named with its index, after the first two kept their extras.
        let broken = Self.submission("e", seq: 1).replacingOccurrences(of: #""choice":2"#, with: #""choice":-1"#)
        #expect(throws: EventError.self) { try Self.record(broken) }
        do { _ = try Self.record(broken) } catch let error as EventError {
            #expect(error.kind == .invalidData)
            #expect(error.member == "data.answers[2].choice")
        } catch { Issue.record("unexpected \(error)") }
        // `"\u0062"` is `b`: the same member name given twice in one answer.
        let duplicate = Self.submission("e", seq: 1).replacingOccurrences(of: #""c":[1]"#, with: #""b":0"#)
        do { _ = try Self.record(duplicate); Issue.record("accepted a duplicate member") } catch let error as EventError {
            #expect(error.kind == .duplicateMember)
            #expect(error.member == "b")
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test("data scanned before its type is known is read again for the type, its extras kept")
    func dataBeforeType() throws {
        // `type` after `data` and written with an escape: `data` is read as any value first, then again for the type.
        let line = #"{"v":1,"seq":1,"id":"e","at":"2025-10-22T11:00:00Z","user":"u-1","data":{"attempt":"a","more":{"k":"v\n"}},"type":"quiz.\u0066inished","prev":"\#(Self.prev)"}"#
        guard case .event(let e) = try Self.record(line), case .quizFinished(let f) = e.event else {
            Issue.record("expected quiz.finished"); return
        }
        #expect(f.attempt == "a")
        #expect(f.extra == [JSONMember("more", .object([JSONMember("k", .string("v\n"))]))])
        _ = try Self.check(line)
    }

    @Test("an id written with escapes: verify's keys carry its text (made from its capture), the record's id; a bad one, the same error")
    func escapedID() throws {
        let line = #"{"v":1,"seq":1,"id":"e\u002d1","at":"2025-10-22T11:00:00Z","user":"u-1","type":"quiz.finished","data":{"attempt":"a"},"prev":"\#(Self.prev)"}"#
        let keys = try Self.check(line)
        guard case .text(let id) = keys.id else { Issue.record("expected the id's text, got \(keys.id)"); return }
        #expect(Array(id.utf8) == Array("e-1".utf8))
        guard case .event(let e) = try Self.record(line) else { Issue.record("expected a record"); return }
        #expect(Array(e.id.utf8) == Array("e-1".utf8))
        // `\u0020` is a space, which no id may hold: both readers refuse it with the rule's message.
        let bad = line.replacingOccurrences(of: #"e\u002d1"#, with: #"e\u00201"#)
        var errors: [EventError] = []
        do { _ = try Self.record(bad) } catch let error as EventError { errors.append(error) }
        do { _ = try Self.check(bad) } catch { errors.append(error) }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.kind == .invalidEnvelope && $0.member == "id" })
        #expect(errors.first?.rule == errors.last?.rule && errors.first?.rule.contains("(got \"e 1\")") == true)
    }
}
