import Testing
@testable import Events

/// `CodePoint.equal`/`less` and `ExactString`'s `==`/`<` compare strings in
/// their UTF-8 storage (eight bytes at a time, up to the first difference):
/// against the UTF-8 bytes compared one by one, for every length across the
/// small-string limit (15 bytes) and the 8-byte words, a difference at every
/// position, either way, and strings Swift's `==` calls equal (canonical
/// equivalence) that the spec keeps apart.
@Suite("exact strings: equality and code point order on the UTF-8 bytes")
struct ExactStringTests {
    /// Strings of every length from 0 to 40 bytes, and each one with one byte
    /// changed (up or down) at every position, or cut, or made longer.
    static var strings: [String] {
        var all: [String] = ["", "caf\u{E9}", "cafe\u{301}", "\u{10FFFF}", "u-655", "u-123", "u-65", "u-6550", "\u{7F}", "\u{80}"]
        for n in 0...40 {
            let base = (0..<n).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            all.append(String(decoding: base, as: UTF8.self))
            for k in 0..<n {
                for delta in [1, -1] {
                    var changed = base
                    changed[k] = UInt8(Int(changed[k]) + delta)
                    all.append(String(decoding: changed, as: UTF8.self))
                }
            }
            all.append(String(decoding: base + [UInt8(ascii: "z")], as: UTF8.self))
            all.append(String(decoding: base + [0xC3, 0xA9], as: UTF8.self))   // é: non-ASCII at the end
        }
        return all
    }

    @Test("equal exactly when the UTF-8 bytes are equal; less exactly when they sort first")
    func againstBytes() {
        let all = Self.strings
        var checked = 0, equal = 0, wrong: [String] = []
        for a in all {
            // Every pair of lengths within one of each other (and every pair with a short string).
            for b in all where abs(a.utf8.count - b.utf8.count) <= 1 || a.utf8.count < 3 {
                let (x, y) = (Array(a.utf8), Array(b.utf8))
                let same = x == y, first = x.lexicographicallyPrecedes(y)
                if CodePoint.equal(a, b) != same || (ExactString(a) == ExactString(b)) != same
                    || CodePoint.less(a, b) != first || (ExactString(a) < ExactString(b)) != first {
                    wrong.append("\(x) \(y)")
                }
                checked += 1
                if same { equal += 1 }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(checked > 100_000)
        #expect(equal >= Set(all.map { Array($0.utf8) }).count)
    }

    @Test("two spellings of café are two strings, the composed one sorting after (U+00E9 > e)")
    func canonicalEquivalents() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed)   // Swift's own ==: canonical equivalence
        #expect(!CodePoint.equal(composed, decomposed))
        #expect(ExactString(composed) != ExactString(decomposed))
        #expect(CodePoint.less(decomposed, composed))
        #expect(!CodePoint.less(composed, decomposed))
        #expect(CodePoint.equal(nil, nil) && !CodePoint.equal("a", nil) && CodePoint.equal("a", "a" as String?))
    }
}
