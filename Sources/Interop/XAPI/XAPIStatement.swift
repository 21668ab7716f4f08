import Events

/// One statement before it is written: the parts docs/xapi.md maps an event
/// to. ``write(id:user:timestamp:options:to:)`` writes its members in the
/// page's order, leaving out those that do not apply.
struct XAPIStatement {
    /// An xAPI verb: its IRI and English display name.
    struct Verb {
        let id: String
        let display: String
        /// An ADL verb, `http://adlnet.gov/expapi/verbs/NAME`.
        static func adl(_ name: String) -> Verb { Verb(id: "http://adlnet.gov/expapi/verbs/" + name, display: name) }
    }

    /// `result.score`: raw of max, min 0.
    struct Score {
        let raw: Int
        let max: Int
    }

    /// An extension's value: a string or `true`.
    enum Value {
        case string(String)
        case bool(Bool)
    }

    let verb: Verb
    /// The object activity's id and `definition.type`.
    let object: String
    let objectType: String
    var score: Score?
    var success: Bool?
    var completion: Bool?
    var response: String?
    var duration: ExactSeconds?
    /// The attempt's registration UUID (quiz statements).
    var registration: String?
    /// The parent activity (the quiz of a question).
    var parent: String?
    /// The extensions by name (`event`, `category`, `skill`, `item`, `hint`, `diagnostic`), in that order.
    var extensions: [(name: String, value: Value)] = []

    /// Activity types.
    static let assessment = "http://adlnet.gov/expapi/activities/assessment"
    static let question = "http://adlnet.gov/expapi/activities/question"
    static let lesson = "http://adlnet.gov/expapi/activities/lesson"
    static let game = "http://activitystrea.ms/schema/1.0/game"

    /// Writes the statement as one compact JSON object (no newline).
    func write(id: String, user: String, timestamp: String, options: XAPIOptions, to w: inout JSONWriter) {
        w.raw("{\"id\":"); w.string(id)
        w.raw(",\"actor\":{\"objectType\":\"Agent\",\"account\":{\"homePage\":"); w.string(options.homepage)
        w.raw(",\"name\":"); w.string(user); w.raw("}}")
        w.raw(",\"verb\":{\"id\":"); w.string(verb.id)
        w.raw(",\"display\":{\"en-US\":"); w.string(verb.display); w.raw("}}")
        w.raw(",\"object\":{\"objectType\":\"Activity\",\"id\":"); w.string(object)
        w.raw(",\"definition\":{\"type\":"); w.string(objectType); w.raw("}}")
        if score != nil || success != nil || completion != nil || response != nil || duration != nil {
            var first = true
            func member(_ name: StaticString) {
                w.raw(first ? "{" : ","); first = false
                w.raw(name)
            }
            w.raw(",\"result\":")
            if let score {
                member("\"score\":")
                w.raw("{\"scaled\":"); w.literal(Self.scaled(score.raw, score.max))
                w.raw(",\"raw\":"); w.integer(score.raw)
                w.raw(",\"min\":0,\"max\":"); w.integer(score.max); w.raw("}")
            }
            if let success { member("\"success\":"); w.bool(success) }
            if let completion { member("\"completion\":"); w.bool(completion) }
            if let response { member("\"response\":"); w.string(response) }
            if let duration { member("\"duration\":"); w.string("PT\(duration)S") }
            w.raw("}")
        }
        w.raw(",\"context\":{")
        var first = true
        if let registration { w.raw("\"registration\":"); w.string(registration); first = false }
        if let parent {
            if !first { w.raw(",") }
            w.raw("\"contextActivities\":{\"parent\":[{\"objectType\":\"Activity\",\"id\":"); w.string(parent); w.raw("}]}")
            first = false
        }
        if !extensions.isEmpty {
            if !first { w.raw(",") }
            w.raw("\"extensions\":")
            for (k, e) in extensions.enumerated() {
                w.raw(k == 0 ? "{" : ",")
                w.string(options.activityBase + "extensions/" + e.name)
                w.raw(":")
                switch e.value {
                case .string(let s): w.string(s)
                case .bool(let b): w.bool(b)
                }
            }
            w.raw("}")
        }
        w.raw("},\"timestamp\":"); w.string(timestamp)
        w.raw(",\"version\":\"1.0.3\"}")
    }

    /// `raw / max` with at most 4 decimals, halves up, trailing zeros and point
    /// removed (`0`, `1`, `0.8`, `0.6667`); raw in 0...max, max > 0.
    static func scaled(_ raw: Int, _ max: Int) -> String {
        guard max > 0 else { return "0" }
        let tenThousandths = (20_000 * raw + max) / (2 * max)   // round half up
        let whole = tenThousandths / 10_000
        var fraction = tenThousandths % 10_000
        guard fraction != 0 else { return String(whole) }
        var digits = 4
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let text = String(fraction)
        return String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }

    /// One activity-id path segment: UTF-8 bytes other than `A-Z a-z 0-9 - . _ ~`
    /// as `%XX` (uppercase hex); `.` and `..` have their dots as `%2E`.
    static func segment(_ s: String) -> String {
        if s == "." || s == ".." { return String(repeating: "%2E", count: s.utf8.count) }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(c)
            default:
                out.append(UInt8(ascii: "%")); out.append(hex[Int(c >> 4)]); out.append(hex[Int(c & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The exact seconds of a `seconds` literal (`83.5`, `95`, `1e2`); from
    /// its value to the nanosecond when the literal has more digits than that.
    static func exact(_ seconds: Seconds) -> ExactSeconds {
        var mantissa: Int64 = 0, scale = 0, exponent = 0, sawPoint = false, fits = true
        var u = Array(seconds.literal.utf8)[...]
        while let c = u.first, (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: ".") {
            u = u.dropFirst()
            if c == UInt8(ascii: ".") { sawPoint = true; continue }
            if mantissa > Int64.max / 100 { fits = false; break }
            mantissa = mantissa * 10 + Int64(c - 0x30)
            if sawPoint { scale += 1 }
        }
        if fits, let e = u.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            fits = Int(String(decoding: u.dropFirst(), as: UTF8.self)).map { exponent = $0; return true } ?? false
        } else if !u.isEmpty { fits = false }
        let shift = 9 - scale + exponent
        if fits, shift >= 0, shift <= 18 {
            var n = mantissa
            for _ in 0..<shift { if n > Int64.max / 10 { fits = false; break }; n *= 10 }
            if fits { return ExactSeconds(nanoseconds: n) }
        } else if fits, shift < 0, shift >= -18 {
            var d: Int64 = 1
            for _ in 0..<(-shift) { d *= 10 }
            if mantissa % d == 0 { return ExactSeconds(nanoseconds: mantissa / d) }
        }
        let nanos = (seconds.value * 1e9).rounded()
        return ExactSeconds(nanoseconds: nanos < 9.2e18 ? Int64(nanos) : Int64.max)
    }
}
