import Events
import Testing

/// The one content comparison (`LineCodec.sameContent`, `JSONValue.isEquivalent`), on hand-picked cases.
@Suite("Content equivalence")
struct ContentEquivalenceTests {
    static func line(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test("numbers compare by value", arguments: [
        ("1", "1.0", true), ("1", "10e-1", true), ("0.1e1", "1", true), ("-0", "0", true), ("100", "1E2", true),
        ("1e400", "10e399", true), ("1", "2", false), ("-1", "1", false), ("0.5", "0.50", true), ("12", "1.2", false),
    ])
    func numbers(a: String, b: String, same: Bool) {
        #expect(JSONValue.number(a).isEquivalent(to: .number(b)) == same)
    }

    @Test func objectsIgnoreMemberOrderArraysDoNot() {
        let x = JSONValue.object([JSONMember("a", .number("1")), JSONMember("b", .array([.bool(true), .null]))])
        let y = JSONValue.object([JSONMember("b", .array([.bool(true), .null])), JSONMember("a", .number("1.00"))])
        let z = JSONValue.object([JSONMember("b", .array([.null, .bool(true)])), JSONMember("a", .number("1"))])
        #expect(x.isEquivalent(to: y))
        #expect(!x.isEquivalent(to: z))
        #expect(!JSONValue.string("1").isEquivalent(to: .number("1")))
    }

    @Test func linesCompareContentNotPosition() {
        let stored = Self.line(#"{"v":1,"seq":7,"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u","type":"hints.granted","data":{"amount":2,"reason":"seed"},"prev":"ab"}"#)
        let resent = Self.line(#"{"id":"e-1","user":"u","type":"hints.granted","at":"2025-10-21T08:15:00+03:00","data":{"reason":"seed","amount":2.0}}"#)
        let escaped = Self.line(#"{"id":"e-1","user":"\u0075","type":"hints.granted","at":"2025-10-21T08:15:00+03:00","data":{"reason":"seed","amount":2}}"#)
        let otherAt = Self.line(#"{"id":"e-1","user":"u","type":"hints.granted","at":"2025-10-21T05:15:00Z","data":{"reason":"seed","amount":2}}"#)
        let withDevice = Self.line(#"{"id":"e-1","user":"u","device":"d","type":"hints.granted","at":"2025-10-21T08:15:00+03:00","data":{"reason":"seed","amount":2}}"#)
        let otherData = Self.line(#"{"id":"e-1","user":"u","type":"hints.granted","at":"2025-10-21T08:15:00+03:00","data":{"reason":"seed","amount":2,"x":1}}"#)
        #expect(LineCodec.sameContent(stored, resent))
        #expect(LineCodec.sameContent(stored, escaped), "strings compare unescaped")
        #expect(!LineCodec.sameContent(stored, otherAt), "the same instant written otherwise is another string")
        #expect(!LineCodec.sameContent(stored, withDevice))
        #expect(!LineCodec.sameContent(stored, otherData))
        #expect(!LineCodec.sameContent(stored, Self.line("not json")))
    }
}
