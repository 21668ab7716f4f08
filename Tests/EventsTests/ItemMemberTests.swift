import Foundation
import Testing
@testable import Events

/// Version 2's optional `item` on `answer.selected` and on each answer of
/// `submission.made` (events-v2.md, "Optional members added in version 2"):
/// the spec's rules (1 to 256 characters, no control characters, a string),
/// at append and at verify, naming `data.item` or `data.answers[i].item`; the
/// line keeps `v` 1; code points, not `String ==`, tell two items apart.
@Suite("the item member (format version 2)")
struct ItemMemberTests {
    static let head = #"{"v":1,"seq":1,"id":"e-1","at":"2025-10-21T09:00:00Z","user":"u-1","type":"#
    static let tail = #","prev":"0000000000000000000000000000000000000000000000000000000000000000"}"#

    static func answer(_ item: String) -> String {
        head + #""answer.selected","data":{"attempt":"a-1","question":"q1","choice":0,"correct":true,"item":\#(item)}"# + tail
    }

    static func submission(_ item: String) -> String {
        head + #""submission.made","data":{"content":"l-1","kind":"lesson","category":"math","answers":["#
            + #"{"question":"1","choice":0,"correct":true,"item":"bank-1"},{"question":"2","choice":1,"correct":false,"item":\#(item)}]}"#
            + tail
    }

    /// The error a stored line gets from the reader (verify's check).
    static func refusal(_ line: String) -> EventError? {
        do { _ = try LineCodec.decodeRecord(Array(line.utf8)); return nil } catch { return error }
    }

    @Test("a valid item is read, written back byte for byte, and keeps v 1",
          arguments: [#""bank-17""#, #""é""#, "\"" + String(repeating: "中", count: 256) + "\"", #""a b/c:d""#])
    func valid(_ item: String) throws {
        for line in [Self.answer(item), Self.submission(item)] {
            let record = try LineCodec.decodeRecord(Array(line.utf8))
            guard case .event(let envelope) = record else { Issue.record("not an event"); continue }
            #expect(LineCodec.encode(envelope) == Array(line.utf8))
            switch envelope.event {
            case .answerSelected(let a): #expect(a.item.map { Array($0.utf8) } == Array(item.dropFirst().dropLast().utf8)); #expect(a.extra.isEmpty)
            case .submissionMade(let s): #expect(s.answers.map(\.item) == ["bank-1", String(item.dropFirst().dropLast())])
            default: Issue.record("wrong type")
            }
        }
        // An appended event with an item is written with v 1.
        let event = NewEvent(id: "e-1", at: try Timestamp(parsing: "2025-10-21T09:00:00Z"), user: "u-1",
                             event: .answerSelected(AnswerSelected(attempt: "a-1", question: "q1", choice: 0, correct: true, item: "bank-17")))
        let pending = try LineCodec.encodeChecked(event, id: "e-1")
        #expect(String(decoding: pending.template, as: UTF8.self).hasPrefix(#"{"v":1,"#))
    }

    @Test("refused at verify and at append, naming the member",
          arguments: [(#""""#, "must not be empty"), ("\"" + String(repeating: "x", count: 257) + "\"", "at most 256 characters"),
                      (#""a\u0007b""#, "control characters"), (#""a\u0085b""#, "control characters"), (#""\u007f""#, "control characters"),
                      ("17", "must be a string"), ("true", "must be a string"), (#"["x"]"#, "must be a string"), (#"{"id":"x"}"#, "must be a string")])
    func refused(_ item: String, _ rule: String) throws {
        let a = try #require(Self.refusal(Self.answer(item)))
        #expect(a.kind == .invalidData && a.member == "data.item" && a.message.contains(rule), "\(a)")
        let s = try #require(Self.refusal(Self.submission(item)))
        #expect(s.kind == .invalidData && s.member == "data.answers[1].item" && s.message.contains(rule), "\(s)")
        // At append (a line given to `append`, without seq and prev), the same error.
        let given = Self.answer(item).replacingOccurrences(of: #""seq":1,"#, with: "")
            .replacingOccurrences(of: Self.tail, with: "}")
        #expect(throws: EventError.self) { try LineCodec.decodeNewEvent(Array(given.utf8)) }
        do { _ = try LineCodec.decodeNewEvent(Array(given.utf8)) } catch { #expect(error.member == "data.item") }
    }

    @Test("a typed item breaking a rule is refused by the append check, with the decoder's error")
    func typedRefused() throws {
        let at = try Timestamp(parsing: "2025-10-21T09:00:00Z")
        for bad in ["", "tab\there", "x\u{9F}", String(repeating: "x", count: 257)] {
            let event = NewEvent(id: "e-1", at: at, user: "u-1",
                                 event: .submissionMade(SubmissionMade(content: "l-1", kind: .lesson, category: "math",
                                                                      answers: [.init(question: "1", choice: 0, correct: true, item: bad)])))
            do { _ = try LineCodec.encodeChecked(event, id: "e-1"); Issue.record("accepted \(bad.debugDescription)") } catch {
                #expect(error.member == "data.answers[0].item", "\(error)")
            }
        }
    }

    @Test("null is the same as absent")
    func null() throws {
        let record = try LineCodec.decodeRecord(Array(Self.answer("null").utf8))
        guard case .event(let e) = record, case .answerSelected(let a) = e.event else { Issue.record("not an answer"); return }
        #expect(a.item == nil)
    }
}
