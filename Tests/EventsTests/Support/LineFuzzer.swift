import Simulation
@testable import Events

/// Makes seeded random lines for the decoder tests: valid lines written in
/// many ways (member order, whitespace, escapes), lines that break one rule
/// or another, and byte-level mutations of them.
struct LineFuzzer {
    var g: SplitMix64

    init(seed: UInt64) { g = SplitMix64(seed: seed) }

    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &g) < p }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &g) }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    // MARK: - Valid envelopes

    /// A random valid envelope (the property tests' events, with stress strings).
    mutating func envelope(seq: Int) -> Envelope {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: PropertyTests.text(&g).unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
        let user = scalars.isEmpty ? "u" : String(scalars)
        let ids = ["e-\(seq)", String(repeating: "x", count: 64), "a.b_c:d-\(seq)", "Z9"]
        return Envelope(seq: seq, id: pick(ids), at: PropertyTests.timestamp(&g), user: user,
                        device: chance(0.3) ? "dev-\(int(0...9))" : nil,
                        event: PropertyTests.event(&g), prev: chance(0.5) ? Envelope.genesis : String(repeating: "ab12", count: 16))
    }

    /// A line as JSON text: an encoded envelope, parsed to a tree, transformed
    /// (or not), and written back with random whitespace and escapes.
    mutating func line(seq: Int) -> [UInt8] {
        let encoded = LineCodec.encode(envelope(seq: seq))
        if chance(0.2) { return encoded }
        guard let tree = try? encoded.withUnsafeBytes({ b throws(EventError) in try JSONScanner.parse(b) }) else { return encoded }
        var value = tree
        if chance(0.6) { transform(&value, depth: 0) }
        var out: [UInt8] = []
        write(value, into: &out, depth: 0)
        return out
    }

    /// Interesting values to put in place of a member's value.
    mutating func oddValue() -> JSONValue {
        switch int(0...24) {
        case 0: return .null
        case 1: return .bool(chance(0.5))
        case 2: return .number(pick(["0", "-0", "1", "-1", "2", "1.0", "1e3", "1E+2", "0.5", "-0.0", "9223372036854775807",
                                     "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1e400", "12345678901234567890123456789012345678901234567890"]))
        case 3: return .string("")
        case 4: return .string(String(repeating: "é", count: pick([128, 129, 256, 257])))
        case 5: return .string(pick(["\u{7F}", "a\u{85}b", "\u{9F}", "tab\there", "nl\n"]))
        case 6: return .string(pick(["2025-02-29T10:00:00Z", "2024-02-29T23:59:59.999999999-23:59", "2025-10-21T24:00:00Z",
                                     "2025-10-21T08:15:00.1234567890Z", "2025-10-21T08:15:00+24:00", "0000-01-01T00:00:00Z",
                                     "2025-10-21T08:15:00", "2025-10-21 08:15:00Z", "2025-10-21T08:15:00+03:0", "2025-13-01T00:00:00Z"]))
        case 7: return .string(pick(EventType.allCases.map(\.rawValue) + ["quiz.Started", "quiz", "hint_used"]))
        case 8: return .string(pick(["fifty_fifty", "reveal", "seed", "purchase", "reward", "grant", "lesson", "passage",
                                     "all", "quizzes", "puzzles", "submissions", "none", "Lesson"]))
        case 9: return .string(pick([Envelope.genesis, String(repeating: "A", count: 64), String(repeating: "0", count: 63)]))
        case 10: return .string(pick([String(repeating: "x", count: 65), "a b", "ok-1", "é"]))
        case 11: return .array([])
        case 12: return .array([.object([JSONMember("question", .string("q")), JSONMember("choice", .number("0")), JSONMember("correct", .bool(true))]), .number("1")])
        case 13: return .object([])
        case 14: return .object([JSONMember("K", .number("1")), JSONMember("\u{212A}", .number("2"))])
        case 15: return .number(pick(["3", "7", "250"]))
        case 16: return .string(pick(["K", "\u{212A}", "e\u{301}", "\u{E9}"]))
        default: return .string(PropertyTests.text(&g))
        }
    }

    private static let names = ["v", "seq", "id", "at", "user", "device", "type", "data", "prev",
                                "attempt", "quiz", "questions", "daily", "title", "category", "difficulty", "diagnostic",
                                "question", "choice", "correct", "correct_choice", "skill", "ms", "hint", "puzzle",
                                "encoding", "seconds", "content", "kind", "answers", "amount", "reason", "scope",
                                "x", "K", "\u{212A}", "é", "e\u{301}", "user ", "Type"]

    /// Changes the tree: reorder, drop, duplicate, retype or add members, at any depth.
    mutating func transform(_ value: inout JSONValue, depth: Int) {
        switch value {
        case .object(var members):
            if members.count > 1, chance(0.3) { members.shuffle(using: &g) }
            if !members.isEmpty, chance(0.15) { members.remove(at: int(0...(members.count - 1))) }
            if !members.isEmpty, chance(0.08) {
                let m = members[int(0...(members.count - 1))]
                members.insert(chance(0.5) ? m : JSONMember(m.name, oddValue()), at: int(0...members.count))
            }
            if chance(0.15) { members.insert(JSONMember(pick(Self.names), oddValue()), at: int(0...members.count)) }
            if !members.isEmpty, chance(0.3) {
                let k = int(0...(members.count - 1))
                members[k].value = oddValue()
            }
            if !members.isEmpty, chance(0.05) {
                let k = int(0...(members.count - 1))
                members[k].name = pick(Self.names)
            }
            for k in members.indices where chance(0.5) { transform(&members[k].value, depth: depth + 1) }
            value = .object(members)
        case .array(var items):
            if !items.isEmpty, chance(0.2) { items.remove(at: int(0...(items.count - 1))) }
            if !items.isEmpty, chance(0.2) { items.append(items[int(0...(items.count - 1))]) }
            if chance(0.1) { items.insert(oddValue(), at: int(0...items.count)) }
            for k in items.indices where chance(0.5) { transform(&items[k], depth: depth + 1) }
            value = .array(items)
        default:
            if depth > 0, chance(0.1) { value = oddValue() }
        }
    }

    // MARK: - Writing JSON in many ways

    mutating func space(into out: inout [UInt8]) {
        guard chance(0.08) else { return }
        for _ in 0..<int(1...2) { out.append(chance(0.7) ? 0x20 : 0x09) }
    }

    mutating func write(_ value: JSONValue, into out: inout [UInt8], depth: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): string(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                space(into: &out)
                if k > 0 { out.append(UInt8(ascii: ",")); space(into: &out) }
                write(item, into: &out, depth: depth + 1)
            }
            space(into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (k, m) in members.enumerated() {
                space(into: &out)
                if k > 0 { out.append(UInt8(ascii: ",")); space(into: &out) }
                string(m.name, into: &out)
                space(into: &out)
                out.append(UInt8(ascii: ":"))
                space(into: &out)
                write(m.value, into: &out, depth: depth + 1)
            }
            space(into: &out)
            out.append(UInt8(ascii: "}"))
        }
        if depth == 0 { space(into: &out) }
    }

    /// A JSON string; each scalar written plainly or (sometimes) as a `\u` escape.
    mutating func string(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let escapeSome = chance(0.15)
        for scalar in s.unicodeScalars {
            let v = scalar.value
            if v == 0x22 || v == 0x5C || v < 0x20 || (escapeSome && chance(0.4)) {
                if v == 0x22 { out += Array(#"\""#.utf8); continue }
                if v == 0x5C { out += Array(#"\\"#.utf8); continue }
                if v == 0x2F, chance(0.5) { out += Array(#"\/"#.utf8); continue }
                if v == 0x0A, chance(0.5) { out += Array(#"\n"#.utf8); continue }
                if v <= 0xFFFF {
                    out += Array("\\u\(hex4(v))".utf8)
                } else {
                    let u = v - 0x10000
                    out += Array("\\u\(hex4(0xD800 + (u >> 10)))\\u\(hex4(0xDC00 + (u & 0x3FF)))".utf8)
                }
            } else {
                UTF8.encode(scalar) { out.append($0) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    mutating func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: chance(0.5))
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    // MARK: - Byte mutations

    private static let alphabet: [UInt8] = Array(#""\{}[]:,0123456789-.eEtfnulx aZ+/"#.utf8) + [0x09, 0x0A, 0x0D, 0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC2, 0xC3, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
    private static let tokens: [String] = [#"\u"#, #"\ud800"#, #"\udc00"#, #"\ud83d\ude00"#, #"\u0075"#, "null", "true", ",", #"":"#,
                                           #""x":1,"#, #"{"a":1}"#, "[]", #""user":"u","#, "\u{FEFF}", "1e", "-", "0.", "\r\n", #"\"#]

    /// One to three random byte-level edits: replace, delete, insert.
    mutating func mutate(_ line: [UInt8]) -> [UInt8] {
        var bytes = line
        for _ in 0..<int(1...3) {
            let at = bytes.isEmpty ? 0 : int(0...(bytes.count - 1))
            switch int(0...9) {
            case 0...2 where !bytes.isEmpty:
                bytes[at] = pick(Self.alphabet)
            case 3 where !bytes.isEmpty:
                bytes[at] = UInt8.random(in: 0...255, using: &g)
            case 4...5 where !bytes.isEmpty:
                let end = min(bytes.count, at + int(1...4))
                bytes.removeSubrange(at..<end)
            case 6...7:
                bytes.insert(pick(Self.alphabet), at: min(at, bytes.count))
            default:
                bytes.insert(contentsOf: Array(pick(Self.tokens).utf8), at: min(at, bytes.count))
            }
        }
        return bytes
    }
}
