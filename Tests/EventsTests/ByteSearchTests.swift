import Simulation
import Testing
@testable import Events

/// The SIMD byte search and the string scans built on it, against byte-by-byte
/// answers worked out here: every start, every length across the 16-byte
/// blocks and the 8-byte words, a byte of each kind at every position.
@Suite("SIMD byte search and the string scans on it")
struct ByteSearchTests {
    /// Bytes of each kind the search tells apart, and ordinary ones.
    static let kinds: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x0A, 0x0D, 0x1F, 0x20, 0x7F, 0x80, 0xC3, 0xFF, UInt8(ascii: "a")]

    static func isSpecial(_ b: UInt8) -> Bool { b == 0x22 || b == 0x5C || b < 0x20 || b >= 0x80 }

    @Test("the first quote or backslash, and the first special byte in whole blocks, as a byte loop finds them")
    func searchAgreesWithByteLoop() {
        var g = SplitMix64(seed: 26)
        for length in 0...80 {
            for position in 0...length {
                for kind in ByteSearchTests.kinds {
                    // Ordinary bytes with one byte of `kind` at `position` (when inside), sometimes another later.
                    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    if position < length { bytes[position] = kind }
                    if length > 0, Int.random(in: 0..<4, using: &g) == 0 {
                        bytes[Int.random(in: 0..<length, using: &g)] = ByteSearchTests.kinds.randomElement(using: &g) ?? 0
                    }
                    bytes.withUnsafeBytes { b in
                        for start in 0...length {
                            let quote = (start..<length).first { bytes[$0] == 0x22 || bytes[$0] == 0x5C } ?? length
                            #expect(ByteSearch.firstQuoteOrBackslash(b, from: start) == quote)
                            // Whole blocks only: the first special byte if a whole block holds it,
                            // else where fewer than sixteen bytes are left.
                            let blocksEnd = start + (length - start) / 16 * 16
                            let special = (start..<blocksEnd).first { ByteSearchTests.isSpecial(bytes[$0]) } ?? blocksEnd
                            #expect(ByteSearch.firstSpecialInBlocks(b, from: start) == special)
                        }
                    }
                }
            }
        }
    }

    @Test("a block's first special byte, from every lane, with every byte value at every lane (the movemask and the portable compares alike)")
    func blockMaskEveryByteValue() {
        for value in 0...255 {
            let b = UInt8(value)
            for position in 0..<16 {
                // A block of ordinary bytes with `b` at `position`, and sometimes a second special byte after it.
                for second in [nil, position + 3] as [Int?] {
                    var block = [UInt8](repeating: UInt8(ascii: "x"), count: 16)
                    block[position] = b
                    if let second, second < 16 { block[second] = 0x22 }
                    block.withUnsafeBytes { raw in
                        let want = block.indices.first { ByteSearchTests.isSpecial(block[$0]) }
                        #expect(ByteSearch.firstSpecial(inBlockAt: 0, of: raw) == want, "byte \(value) at \(position)")
                        for skip in 0..<16 {
                            let from = (skip..<16).first { ByteSearchTests.isSpecial(block[$0]) }
                            #expect(ByteSearch.firstSpecial(inBlockAt: 0, of: raw, fromLane: skip) == from, "byte \(value) at \(position) from \(skip)")
                        }
                    }
                }
            }
        }
    }

    @Test("the end of a run of digits, with every byte value at every position, from every start")
    func digitsEndAgreesWithByteLoop() {
        for length in 0...20 {
            for position in 0...length {
                for value in 0...255 {
                    // Digits (cycling 0-9), `value` at `position` when inside.
                    var bytes = (0..<length).map { UInt8(ascii: "0") + UInt8($0 % 10) }
                    if position < length { bytes[position] = UInt8(value) }
                    bytes.withUnsafeBytes { raw in
                        for start in 0...length {
                            let want = (start..<length).first { !(bytes[$0] >= 0x30 && bytes[$0] <= 0x39) } ?? length
                            #expect(ByteSearch.digitsEnd(raw, from: start) == want, "\(bytes) from \(start)")
                        }
                    }
                }
            }
        }
    }

    @Test("a plain string's end: the closing quote when nothing special comes before it, at every length, start and buffer end")
    func plainStringEndAgreesWithByteLoop() {
        let kinds = ByteSearchTests.kinds + [0x01, 0x7E, 0xE2]
        for length in 0...40 {
            for trailing in [0, 1, 2, 15, 16, 17] {
                for position in 0...length {
                    for kind in kinds {
                        // `"` + content (ordinary bytes, `kind` at `position` when inside) + `"` + trailing bytes.
                        var content = [UInt8](repeating: UInt8(ascii: "v"), count: length)
                        if position < length { content[position] = kind }
                        let line = [0x22] + content + [0x22] + [UInt8](repeating: UInt8(ascii: "}"), count: trailing)
                        // Worked out byte by byte: the first special byte after the opening quote must be a quote,
                        // and a buffer of fewer than sixteen bytes is never searched.
                        let first = (1..<line.count).first { ByteSearchTests.isSpecial(line[$0]) }
                        let want: Int? = line.count < 16 ? nil : first.flatMap { line[$0] == 0x22 ? $0 : nil }
                        line.withUnsafeBytes { raw in
                            #expect(ByteSearch.plainStringEnd(raw, from: 1) == want, "\(line)")
                        }
                    }
                }
            }
        }
    }

    /// What scanning `"content"` followed by `padding` must give, worked out
    /// byte by byte: the end of the string and its flags, or the error's kind
    /// and offset (line checks first: a CR, then invalid UTF-8).
    static func expected(_ content: [UInt8], padding: Int) -> String {
        let line = [0x22] + content + [0x22] + [UInt8](repeating: 0x20, count: padding)
        if let cr = line.firstIndex(of: 0x0D) { return "line_ending \(cr)" }
        if String(validating: line, as: UTF8.self) == nil {
            // The first byte where the UTF-8 breaks (content here has at most one non-ASCII byte run).
            var k = 0
            while k < line.count {
                let width = line[k] < 0x80 ? 1 : line[k] >= 0xC2 && line[k] <= 0xDF && k + 1 < line.count && line[k + 1] & 0xC0 == 0x80 ? 2 : 0
                if width == 0 { return "encoding \(k)" }
                k += width
            }
        }
        var escaped = false, nonASCII = false, k = 1
        while k < line.count {
            let c = line[k]
            if c == 0x22 { return "string 1..<\(k) escaped:\(escaped) nonASCII:\(nonASCII)" }
            if c < 0x20 { return "not_json \(k)" }
            if c == 0x5C { escaped = true; k += 2; continue }
            if c >= 0x80 { nonASCII = true }
            k += 1
        }
        return "not_json 0"
    }

    static func scanned(_ content: [UInt8], padding: Int) -> String {
        let line = [0x22] + content + [0x22] + [UInt8](repeating: 0x20, count: padding)
        return line.withUnsafeBytes { b in
            var s = JSONScanner(b, checksLine: true)
            do throws(EventError) {
                let c = try s.scanString()
                guard s.i == c.end + 1 else { return "scanner left at \(s.i), not past \(c.end)" }
                return "string \(c.start)..<\(c.end) escaped:\(c.flag) nonASCII:\(c.nonASCII)"
            } catch {
                return "\(error.kind.rawValue) \(error.offset ?? -1)"
            }
        }
    }

    @Test("a string of every length to 70 with a quote, an escape, a control, a CR, a non-ASCII or an invalid byte at every position")
    func stringsAcrossBlocks() {
        let inserts: [[UInt8]] = [[0x22], [0x5C, UInt8(ascii: "n")], [0x5C, UInt8(ascii: "\"")], [0x01], [0x1F], [0x0D],
                                  [0xC3, 0xA9], [0xFF], [0x7F], [0xC3]]
        for length in 0...70 {
            for padding in [0, 1, 7, 20] {
                let plain = [UInt8](repeating: UInt8(ascii: "h"), count: length)
                #expect(ByteSearchTests.scanned(plain, padding: padding) == ByteSearchTests.expected(plain, padding: padding))
                for position in 0..<max(length, 1) {
                    for insert in inserts {
                        var content = plain
                        content.insert(contentsOf: insert, at: min(position, content.count))
                        let got = ByteSearchTests.scanned(content, padding: padding)
                        let want = ByteSearchTests.expected(content, padding: padding)
                        #expect(got == want, "content \(content) padding \(padding)")
                    }
                }
            }
        }
    }

    @Test("typeAhead finds the type after a data written first, across members of every length, and skips an escape at any position in them")
    func typeAheadAcrossBlocks() throws {
        let genesis = Envelope.genesis
        for length in 1...64 {
            let text = String(repeating: "i", count: length)
            // `data` first, then members of every length before `type`: the skim walks data's strings and each member.
            let line = #"{"data":{"amount":1,"reason":"seed","note":"\#(text)"},"id":"\#(text)","v":1,"seq":1,"at":"2025-01-01T00:00:00Z","user":"u-\#(text)","type":"hints.granted","prev":"\#(genesis)"}"#
            let bytes = Array(line.utf8)
            // The decoder reads the same type (an independent path: the full scan).
            guard case .event(let envelope) = try LineCodec.decodeRecord(bytes) else {
                Issue.record("not decoded as an event: \(line)")
                continue
            }
            #expect(envelope.event.type == .hintsGranted)
            #expect(bytes.withUnsafeBytes { Skim($0).typeAhead(afterValueAt: 8) } == .hintsGranted)
            // An escaped quote (or a brace) inside a string of data or of a member before type, at each position:
            // still the same type (the escape is skipped, not taken for the string's end).
            for position in stride(from: 0, through: length, by: 5) {
                for escape in [#"\""#, #"\\"#, "}", #"\"}\"type\":\"x"#] {
                    let escaped = String(repeating: "i", count: position) + escape + String(repeating: "i", count: length - position)
                    for target in [#""note":"\#(text)""#, #""id":"\#(text)""#, #""user":"u-\#(text)""#] {
                        let mutated = Array(line.replacingFirst(target, with: target.replacingFirst(text, with: escaped)).utf8)
                        #expect(mutated.withUnsafeBytes { Skim($0).typeAhead(afterValueAt: 8) } == .hintsGranted, "\(String(decoding: mutated, as: UTF8.self))")
                    }
                }
            }
        }
        // No type after the value, or one that is not a type: nil.
        for line in [#"{"data":{"a":"\"type\":\"hint.used\""},"v":1}"#, #"{"data":{},"type":"hint.use"}"#, #"{"data":{"a":1},"type":1}"#] {
            #expect(Array(line.utf8).withUnsafeBytes { Skim($0).typeAhead(afterValueAt: 8) } == nil, "\(line)")
        }
    }
}

private extension String {
    /// The string with the first `target` replaced (without Foundation).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return self[..<range.lowerBound] + replacement + self[range.upperBound...]
    }
}
