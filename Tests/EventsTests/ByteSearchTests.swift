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

    @Test("the writer's beginning, read fast, gives the general walk's user, and is taken for every plain line the writer writes")
    func writersUserAgreesWithWalk() {
        var fuzzer = LineFuzzer(seed: 2626)
        var taken = 0
        for seq in 1...300 {
            let line = LineCodec.encode(fuzzer.envelope(seq: seq))
            line.withUnsafeBytes { b in
                let skim = Skim(b)
                let walked = skim.topLevelString("user")
                let fast = skim.writersUser()
                #expect(fast == nil || fast == walked)
                // Without a backslash before the user's closing quote, the writer's line is taken fast.
                if let walked, !b[..<walked.upperBound].contains(UInt8(ascii: "\\")) {
                    #expect(fast == walked)
                    taken += 1
                }
            }
            // Mutations of the beginning: whatever the fast path answers, the walk answers too.
            for position in stride(from: 0, to: min(line.count, 140), by: 3) {
                for byte in [0x20, 0x5C, 0x22, 0x39, 0x2C, 0x7D, 0x3A] as [UInt8] {
                    var mutated = line
                    mutated[position] = byte
                    mutated.withUnsafeBytes { b in
                        let skim = Skim(b)
                        if let fast = skim.writersUser() { #expect(fast == skim.topLevelString("user"), "\(mutated)") }
                    }
                }
            }
        }
        // About a third of the fuzzer's lines (98 of 300) have no escape before the user's end; each of those is taken.
        #expect(taken > 50)
    }

    @Test("peekUser finds user after members of every length, and gives up on an escape at any position in them")
    func peekUserAcrossBlocks() throws {
        let genesis = Envelope.genesis
        for length in 1...64 {
            let id = String(repeating: "i", count: length)
            for user in ["u", "u-\(String(repeating: "w", count: length))"] {
                let line = #"{"v":1,"seq":1,"id":"\#(id)","at":"2025-01-01T00:00:00Z","user":"\#(user)","type":"hints.granted","data":{"amount":1,"reason":"seed"},"prev":"\#(genesis)"}"#
                let bytes = Array(line.utf8)
                // The decoder reads the same user (an independent path: the full scan).
                let decoded = try LineCodec.decodeRecord(bytes)
                #expect(decoded.user == user)
                bytes.withUnsafeBytes { b in
                    #expect(LineCodec.peekUser(b).map { String(decoding: UnsafeRawBufferPointer(rebasing: b[$0]), as: UTF8.self) } == user)
                }
                // An escaped quote inside the id, at each position: still the same user (the escape is skipped, not taken for the end).
                for position in stride(from: 0, through: length, by: 5) {
                    let escapedID = String(repeating: "i", count: position) + #"\""# + String(repeating: "i", count: length - position)
                    let mutated = Array(line.replacingFirst(#""id":"\#(id)""#, with: #""id":"\#(escapedID)""#).utf8)
                    mutated.withUnsafeBytes { b in
                        #expect(LineCodec.peekUser(b).map { String(decoding: UnsafeRawBufferPointer(rebasing: b[$0]), as: UTF8.self) } == user)
                    }
                }
            }
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
