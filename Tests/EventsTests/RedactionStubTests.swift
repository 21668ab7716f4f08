import Testing
@testable import Events

/// The redaction stub's reader (`RedactionStub.parts`), which every reader
/// runs on every line before its checks, against the stub's form read here
/// piece by piece with the standard library's own parsing.
@Suite("Redaction stubs: the reader against the form read piece by piece")
struct RedactionStubTests {
    static let head = Array(#"{"v":1,"seq":"#.utf8)
    static let middle = Array(#","redacted":""#.utf8)
    static let link = Array(#"","prev":""#.utf8)
    static let end = Array(#""}"#.utf8)

    /// The stub's parts as its documentation states the form: this exact
    /// text, a seq of digits without a leading zero that fits an `Int`, and
    /// two runs of 64 lowercase hex digits; nil for anything else.
    static func reference(_ line: [UInt8]) -> RedactionStub.Parts? {
        func isHex(_ b: ArraySlice<UInt8>) -> Bool {
            b.count == 64 && b.allSatisfy { "0123456789abcdef".utf8.contains($0) }
        }
        guard line.starts(with: head) else { return nil }
        var rest = line[head.count...]
        let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard digits.first != UInt8(ascii: "0"), let seq = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
        rest = rest.dropFirst(digits.count)
        guard rest.starts(with: middle) else { return nil }
        rest = rest.dropFirst(middle.count)
        let redacted = rest.startIndex..<(rest.startIndex + 64)
        guard isHex(rest.prefix(64)) else { return nil }
        rest = rest.dropFirst(64)
        guard rest.starts(with: link) else { return nil }
        rest = rest.dropFirst(link.count)
        let prev = rest.startIndex..<(rest.startIndex + 64)
        guard isHex(rest.prefix(64)) else { return nil }
        rest = rest.dropFirst(64)
        guard Array(rest) == end else { return nil }
        return RedactionStub.Parts(seq: seq, redacted: redacted, prev: prev)
    }

    static func parts(_ line: [UInt8]) -> RedactionStub.Parts? {
        line.withUnsafeBytes { RedactionStub.parts($0) }
    }

    static let hex = "0123456789abcdef"

    /// Stubs of every seq length the form allows, and one past.
    static var stubs: [[UInt8]] {
        let seqs = [1, 7, 10, 99, 12_345, 1_000_000, Int.max / 10, Int.max]
        return seqs.enumerated().map { k, seq in
            let digest = String(repeating: k % 2 == 0 ? hex : "fedcba9876543210", count: 4)
            let prev = String(String(repeating: hex, count: 4).reversed())
            return RedactionStub(seq: seq, redacted: digest, prev: prev).encoded()
        } + [
            // Beyond an Int, a leading zero, a seq of 0, no seq: not stubs.
            Array(#"{"v":1,"seq":9223372036854775808,"redacted":""#.utf8) + Array(String(repeating: hex, count: 4).utf8)
                + link + Array(String(repeating: hex, count: 4).utf8) + end,
            Array(#"{"v":1,"seq":07,"redacted":""#.utf8) + Array(String(repeating: hex, count: 4).utf8)
                + link + Array(String(repeating: hex, count: 4).utf8) + end,
            Array(#"{"v":1,"seq":0,"redacted":""#.utf8) + Array(String(repeating: hex, count: 4).utf8)
                + link + Array(String(repeating: hex, count: 4).utf8) + end,
            Array(#"{"v":1,"seq":,"redacted":""#.utf8) + Array(String(repeating: hex, count: 4).utf8)
                + link + Array(String(repeating: hex, count: 4).utf8) + end,
        ]
    }

    @Test("stubs as written, and with every byte changed, taken away or added: the same parts (or none) as the form read piece by piece")
    func mutations() {
        let values: [UInt8] = [0x30, 0x39, 0x61, 0x66, 0x67, 0x41, 0x22, 0x2C, 0x3A, 0x7B, 0x7D, 0x20, 0x00, 0xFF]
        var differ: [String] = [], cases = 0, found = 0
        func check(_ line: [UInt8]) {
            cases += 1
            let expected = RedactionStubTests.reference(line)
            if expected != nil { found += 1 }
            if RedactionStubTests.parts(line) != expected { differ.append(String(decoding: line, as: UTF8.self)) }
        }
        for stub in RedactionStubTests.stubs {
            check(stub)
            for position in stub.indices {
                for value in values {
                    var changed = stub
                    changed[position] = value
                    check(changed)
                    var added = stub
                    added.insert(value, at: position)
                    check(added)
                }
                var removed = stub
                removed.remove(at: position)
                check(removed)
                check(Array(stub[..<position]))
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(3))")
        #expect(cases > 50_000)
        // The stubs themselves and the mutations that keep the form (a hex digit for a hex digit, a seq's digit).
        #expect(found > 1_000)
    }

    @Test("an event line of every length around a stub's: never a stub, as the form read piece by piece says")
    func eventLines() {
        let event = Array(#"{"v":1,"seq":12,"id":"u-1:12","at":"2025-10-06T06:28:44+11:00","user":"u-1","device":"phone","type":"hint.used","data":{"attempt":"a-1","question":"q4","hint":"fifty_fifty"},"prev":""#.utf8)
            + Array(String(repeating: RedactionStubTests.hex, count: 4).utf8) + RedactionStubTests.end
        var differ = 0
        for length in 150...200 {
            // Cut, or padded in the middle of `data`, to the length.
            var line = Array(event.prefix(length))
            if line.count < length { line.insert(contentsOf: [UInt8](repeating: 0x61, count: length - line.count), at: 130) }
            if RedactionStubTests.parts(line) != RedactionStubTests.reference(line) { differ += 1 }
            #expect(RedactionStubTests.parts(line) == nil)
        }
        #expect(differ == 0)
    }

    @Test("a stub written and read back")
    func roundTrip() throws {
        let stub = RedactionStub(seq: 42, redacted: String(repeating: "ab", count: 32), prev: String(repeating: "0", count: 64))
        let line = stub.encoded()
        #expect(String(decoding: line, as: UTF8.self)
                == #"{"v":1,"seq":42,"redacted":""# + String(repeating: "ab", count: 32) + #"","prev":""# + String(repeating: "0", count: 64) + #""}"#)
        #expect(RedactionStub.decode(line) == stub)
        let parts = try #require(RedactionStubTests.parts(line))
        #expect(parts.seq == 42 && parts.redacted == 28..<92 && parts.prev == 102..<166)
    }

    @Test("the length test readers run first: true exactly for the lengths of stubs written with seqs of 1 to 19 digits")
    func stubLengths() {
        var seq = 1
        var lengths: Set<Int> = []
        for _ in 1...19 {
            lengths.insert(RedactionStub(seq: seq, redacted: String(repeating: "a", count: 64), prev: String(repeating: "b", count: 64)).encoded().count)
            if seq <= Int.max / 10 { seq *= 10 }
        }
        lengths.insert(RedactionStub(seq: Int.max, redacted: String(repeating: "a", count: 64), prev: String(repeating: "b", count: 64)).encoded().count)
        #expect(lengths.count == 19)
        for n in 0...400 {
            #expect(RedactionStub.hasStubLength(n) == lengths.contains(n), "\(n)")
        }
    }
}
