import Testing
@testable import Events

/// The second stage's table for `submission.made` (``DataRules/Items``): its
/// answers checked on their captures, their questions compared as bytes by
/// the rule the built answers' `clash` states (``DataObject/distinct``). Each
/// line is compared with the general walk alone (record, keys, error:
/// ``WritersLineTests/agree(_:_:)``), and the distinctness with a reference
/// written here: the questions unescaped by hand, compared as byte arrays.
@Suite("The second stage on submissions: answers by their own table, questions distinct as bytes")
struct SubmissionRulesTests {
    /// One answer as the writer writes it, `question` as written in the line (escapes and all).
    static func answer(_ question: String, choice: Int = 1, correct: Bool = true) -> String {
        "{\"question\":\"\(question)\",\"choice\":\(choice),\"correct\":\(correct),\"skill\":\"tone\",\"item\":\"reading-bank-01\"}"
    }

    /// A writer's `submission.made` line whose `answers` are these items (as written) and `data`'s other members these.
    static func line(_ items: [String], data: String = "\"content\":\"lesson-reading-4\",\"kind\":\"lesson\",\"category\":\"reading\",\"diagnostic\":true,\"seconds\":393",
                     answers: String? = nil) -> [UInt8] {
        let list = answers ?? "[" + items.joined(separator: ",") + "]"
        let members = data.isEmpty ? "\"answers\":\(list)" : data + ",\"answers\":\(list)"
        return Array(("{\"v\":1,\"seq\":23,\"id\":\"u-013:2\",\"at\":\"2025-10-06T07:16:53.696+11:00\",\"user\":\"u-013\","
            + "\"device\":\"phone-u-013\",\"type\":\"submission.made\",\"data\":{\(members)},"
            + "\"prev\":\"c2851c8863371c486cb9106203a14d9d7b3be4d308f654c7a9e9068ad12ba51e\"}").utf8)
    }

    /// verify's error for the line (kind and member), or nil when it is valid.
    static func verdict(_ line: [UInt8]) -> String? {
        line.withUnsafeBytes { b in
            do throws(EventError) { _ = try LineCodec.checkRecord(b); return nil } catch { return "\(error.kind) \(error.member ?? "-")" }
        }
    }

    /// Checks `line` against the general walk and the second stage's answer against `fast`.
    static func check(_ line: [UInt8], fast: Bool, _ note: String) {
        WritersLineTests.agree(line, note)
        #expect(DataRulesTests.checkedFast(line) == fast, "\(note): \(String(decoding: line, as: UTF8.self))")
    }

    /// The reference: the first answer whose question (unescaped here, `\uXXXX` of ASCII only) repeats one before it.
    static func firstRepeat(_ questions: [String]) -> Int? {
        func unescaped(_ q: String) -> [UInt8] {
            var out: [UInt8] = [], bytes = Array(q.utf8), k = 0
            while k < bytes.count {
                if bytes[k] == UInt8(ascii: "\\"), k + 6 <= bytes.count, bytes[k + 1] == UInt8(ascii: "u"),
                   let v = UInt8(String(decoding: bytes[(k + 2)..<(k + 6)], as: UTF8.self), radix: 16) {
                    out.append(v); k += 6
                } else {
                    out.append(bytes[k]); k += 1
                }
            }
            return out
        }
        var seen: [[UInt8]] = []
        for (k, q) in questions.enumerated() {
            let u = unescaped(q)
            if seen.contains(u) { return k }
            seen.append(u)
        }
        return nil
    }

    @Test("distinct questions, 0 to 40 answers: taken by the second stage, valid, as the general walk reads them")
    func distinctQuestions() {
        for n in [0, 1, 2, 3, 5, 8, 15, 16, 17, 18, 33, 40] {
            let l = Self.line((0..<n).map { Self.answer("q\($0)") })
            Self.check(l, fast: true, "\(n) answers")
            #expect(Self.verdict(l) == nil, "\(n) answers")
        }
    }

    @Test("one question repeated, at every pair of places of 2 to 8 answers and across the 16th of up to 33: not taken, the repeat named")
    func repeatedQuestions() {
        var pairs: [(n: Int, i: Int, j: Int)] = []
        for n in 2...8 { for j in 1..<n { for i in 0..<j { pairs.append((n, i, j)) } } }
        for n in [16, 17, 18, 20, 33] {
            for (i, j) in [(0, n - 1), (14, 15), (15, 16), (16, 17), (0, 16), (3, 17), (n - 2, n - 1), (0, 15), (1, 16)] where j < n {
                pairs.append((n, i, j))
            }
        }
        for (n, i, j) in pairs {
            var questions = (0..<n).map { "q\($0)" }
            questions[j] = questions[i]
            let l = Self.line(questions.map { Self.answer($0) })
            Self.check(l, fast: false, "\(n) answers, \(j) repeats \(i)")
            #expect(Self.verdict(l) == "invalidData data.answers[\(j)].question", "\(n) answers, \(j) repeats \(i)")
        }
    }

    @Test("questions written with escapes (\\u0071): equal after unescaping is a repeat, different bytes or not; the payload is built")
    func escapedQuestions() {
        // `\u0071` is `q`: the same question as `q1`'s first byte written plainly.
        let cases: [[String]] = [
            ["q1", "\\u00711"], ["\\u00711", "q1"], ["\\u00711", "\\u00711"], ["\\u0071", "q"], ["a", "\\u0071", "b", "q"],
            ["\\u00711", "q2"], ["\\u0071", "\\u0072"], ["q1", "q2", "\\u00713"], ["\\u0041", "A", "B"],
            (0..<20).map { "q\($0)" } + ["\\u00717"], (0..<20).map { "q\($0)" } + ["\\u007117"],
        ]
        for questions in cases {
            let l = Self.line(questions.map { Self.answer($0) })
            Self.check(l, fast: false, "\(questions)")
            let expected = Self.firstRepeat(questions).map { "invalidData data.answers[\($0)].question" }
            #expect(Self.verdict(l) == expected, "\(questions)")
        }
    }

    @Test("questions compared by code points, never by String ==: é and e + U+0301 are two questions; é twice is one")
    func codePoints() {
        let distinct = Self.line([Self.answer("\u{E9}"), Self.answer("e\u{301}")])
        Self.check(distinct, fast: true, "é, e + U+0301")
        #expect(Self.verdict(distinct) == nil)
        let same = Self.line([Self.answer("\u{E9}"), Self.answer("x"), Self.answer("\u{E9}")])
        Self.check(same, fast: false, "é twice")
        #expect(Self.verdict(same) == "invalidData data.answers[2].question")
        // The same bytes, one written with the escape: a repeat, found by building the payload.
        let escaped = Self.line([Self.answer("e\u{301}"), Self.answer("e\\u0301")])
        Self.check(escaped, fast: false, "e + U+0301, escaped")
        #expect(Self.verdict(escaped) == "invalidData data.answers[1].question")
    }

    @Test("each member of each answer removed, moved, doubled or given an odd value; each of data's members too: the general walk's verdict")
    func answerMembers() {
        let members = ["\"question\":\"q0\"", "\"choice\":1", "\"correct\":true", "\"skill\":\"tone\"", "\"item\":\"reading-bank-01\""]
        let odd = ["null", "1", "-1", "1.5", "\"\"", "\"x\"", "\"\\u0000\"", "true", "{}", "[]", "[1]", "\"\(String(repeating: "a", count: 257))\""]
        func item(_ m: [String]) -> String { "{" + m.joined(separator: ",") + "}" }
        var lines = 0
        for n in 1...3 {
            for k in 0..<n {
                func with(_ changed: String) -> [UInt8] {
                    Self.line((0..<n).map { $0 == k ? changed : Self.answer("q\($0)") })
                }
                for j in members.indices {
                    var removed = members
                    removed.remove(at: j)
                    var variants = [item(removed.map { $0.replacingOccurrences(of: "q0", with: "q\(k)") })]
                    if j + 1 < members.count {
                        var moved = members
                        moved.swapAt(j, j + 1)
                        variants.append(item(moved.map { $0.replacingOccurrences(of: "q0", with: "q\(k)") }))
                    }
                    var doubled = members
                    doubled.insert(members[j], at: j + 1)
                    variants.append(item(doubled.map { $0.replacingOccurrences(of: "q0", with: "q\(k)") }))
                    let name = String(members[j].prefix { $0 != ":" })
                    for value in odd {
                        var m = members.map { $0.replacingOccurrences(of: "q0", with: "q\(k)") }
                        m[j] = name + ":" + value
                        variants.append(item(m))
                    }
                    for v in variants {
                        WritersLineTests.agree(with(v), "answer \(k) of \(n): \(v)")
                        lines += 1
                    }
                }
                // An item that is not an answer, or an answer with a member the format does not define.
                for v in ["1", "null", "[]", "{}", "\"q\"", item(members + ["\"extra\":1"]), item(["\"extra\":1"] + members)] {
                    WritersLineTests.agree(with(v), "answer \(k) of \(n): \(v)")
                    lines += 1
                }
            }
        }
        // `data`'s own members: removed, moved, `answers` odd.
        let data = ["\"content\":\"lesson-reading-4\"", "\"kind\":\"lesson\"", "\"category\":\"reading\"", "\"diagnostic\":true", "\"seconds\":393"]
        let two = [Self.answer("q0"), Self.answer("q1")]
        for j in data.indices {
            var removed = data
            removed.remove(at: j)
            WritersLineTests.agree(Self.line(two, data: removed.joined(separator: ",")), "data without \(data[j])")
            if j + 1 < data.count {
                var moved = data
                moved.swapAt(j, j + 1)
                WritersLineTests.agree(Self.line(two, data: moved.joined(separator: ",")), "data with \(data[j]) moved")
            }
            lines += 2
        }
        for list in ["null", "{}", "1", "\"x\"", "[1]", "[null]", "[[]]", "[{}]", "[{},{}]"] {
            WritersLineTests.agree(Self.line([], answers: list), "answers \(list)")
            lines += 1
        }
        WritersLineTests.agree(Self.line(two, data: ""), "answers alone")
        // Answers first, then the rest: not the writer's order.
        let first = Array(("{\"v\":1,\"seq\":23,\"id\":\"u-013:2\",\"at\":\"2025-10-06T07:16:53.696+11:00\",\"user\":\"u-013\","
            + "\"device\":\"phone-u-013\",\"type\":\"submission.made\",\"data\":{\"answers\":[\(two.joined(separator: ","))],"
            + data.joined(separator: ",") + "},\"prev\":\"c2851c8863371c486cb9106203a14d9d7b3be4d308f654c7a9e9068ad12ba51e\"}").utf8)
        WritersLineTests.agree(first, "answers first")
        #expect(lines > 200)
    }

    @Test("random submissions (questions from a small alphabet, some escaped): taken exactly when plain and distinct, verdicts equal")
    func randomSubmissions() {
        var random = SystemRandomNumberGenerator()
        var taken = 0, repeats = 0
        for _ in 0..<1500 {
            let n = Int.random(in: 0...24, using: &random)
            var questions: [String] = []
            var escaped = false
            for _ in 0..<n {
                let q = "q\(Int.random(in: 0...(n < 6 ? 12 : 60), using: &random))"
                if Int.random(in: 0..<30, using: &random) == 0 {
                    questions.append("\\u0071" + q.dropFirst()); escaped = true
                } else {
                    questions.append(q)
                }
            }
            let l = Self.line(questions.map { Self.answer($0, choice: Int.random(in: 0...3, using: &random)) })
            let first = Self.firstRepeat(questions)
            Self.check(l, fast: !escaped && first == nil, "\(questions)")
            #expect(Self.verdict(l) == first.map { "invalidData data.answers[\($0)].question" }, "\(questions)")
            if !escaped && first == nil { taken += 1 }
            if first != nil { repeats += 1 }
        }
        #expect(taken > 200 && repeats > 200, "\(taken) taken, \(repeats) with a repeat")
    }
}
