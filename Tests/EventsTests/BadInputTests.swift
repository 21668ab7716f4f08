import Foundation
import Testing
import Events

/// One case of the bad-input corpus (Resources/bad-lines.jsonl, made by scripts/make-bad-lines.py).
struct BadLine: Sendable, CustomTestStringConvertible {
    let name: String
    let kind: String
    let member: String?
    let bytes: [UInt8]
    var testDescription: String { name }

    static func corpus() throws -> [BadLine] {
        guard let url = Bundle.module.url(forResource: "bad-lines", withExtension: "jsonl", subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { row in
            let o = try #require(try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any])
            let bytes: [UInt8]
            if let hex = o["hex"] as? String {
                let u = Array(hex.utf8)
                bytes = stride(from: 0, to: u.count, by: 2).map { i in
                    UInt8(String(decoding: u[i..<i + 2], as: UTF8.self), radix: 16) ?? 0
                }
            } else {
                bytes = Array(try #require(o["line"] as? String).utf8)
            }
            return BadLine(name: try #require(o["case"] as? String), kind: try #require(o["kind"] as? String),
                           member: o["member"] as? String, bytes: bytes)
        }
    }
}

@Suite("Bad input is refused with the member and the rule")
struct BadInputTests {
    static let corpus: [BadLine] = (try? BadLine.corpus()) ?? []

    @Test("the corpus holds at least 60 lines")
    func corpusSize() {
        #expect(Self.corpus.count >= 60)
    }

    @Test("each bad line names its kind, member and rule", arguments: corpus)
    func refused(_ bad: BadLine) {
        do {
            let event = try LineCodec.decodeNewEvent(bad.bytes)
            Issue.record("accepted: \(event)")
        } catch {
            #expect(error.kind.rawValue == bad.kind, "\(error)")
            #expect(error.member == bad.member, "\(error)")
            #expect(!error.rule.isEmpty)
            if let member = bad.member { #expect(error.message.hasPrefix(member + ": ")) }
        }
    }

    @Test("a line over 1 MiB is refused as line_too_long before parsing")
    func tooLong() {
        let filler = String(repeating: "x", count: LineCodec.maxLineLength)
        let line = #"{"at":"2025-01-01T00:00:00Z","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed","pad":"\#(filler)"}}"#
        #expect(throws: EventError(.lineTooLong, "the line is \(line.utf8.count) bytes; at most 1048576 are allowed")) {
            try LineCodec.decodeNewEvent(Array(line.utf8))
        }
    }

    @Test("a not_json error gives the column", arguments: [("{\"a\":}", 6), ("{\"a\":1,}", 8)])
    func column(line: String, column: Int) {
        do {
            _ = try LineCodec.decodeRecord(Array(line.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .notJSON)
            #expect(error.offset == column - 1)
            #expect(error.rule.contains("column \(column)"))
        }
    }

    @Test("deep nesting is refused without recursion blowing the stack")
    func deepNesting() {
        let depth = 100_000
        let line = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: EventError.self) { try LineCodec.decodeRecord(Array(line.utf8)) }
    }

    @Test("large objects with many members stay linear and detect duplicates")
    func manyMembers() {
        var members = (0..<50_000).map { "\"m\($0)\":0" }
        members.append("\"m49999\":1")
        let line = "{" + members.joined(separator: ",") + "}"
        do {
            _ = try LineCodec.decodeRecord(Array(line.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .duplicateMember)
            #expect(error.member == "m49999")
        }
    }
}
