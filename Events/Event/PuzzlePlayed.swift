/// `puzzle.completed` or `puzzle.failed`: one attempt at a puzzle.
public struct PuzzlePlayed: Sendable, Hashable {
    /// The puzzle id.
    public var puzzle: String
    /// The variant it was played in, e.g. `caesar`.
    public var encoding: String
    /// Time taken (> 0); required for a completion, optional for a failure.
    public var seconds: Seconds?
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Makes a puzzle payload.
    public init(puzzle: String, encoding: String, seconds: Seconds? = nil, extra: [JSONMember] = []) {
        self.puzzle = puzzle; self.encoding = encoding; self.seconds = seconds; self.extra = extra
    }
}

extension PuzzlePlayed: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember { case puzzle, encoding, seconds }
    /// On its own, a puzzle payload is read with `puzzle.failed`'s rules (`seconds` optional).
    package static var eventType: EventType { .puzzleFailed }

    /// `seconds` is required for a completion, optional for a failure.
    static func secondsRequired(_ type: EventType?) -> Bool { type == .puzzleCompleted }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(puzzle: try d.string(.puzzle), encoding: try d.string(.encoding),
                  seconds: try d.seconds(.seconds, required: PuzzlePlayed.secondsRequired(d.type)), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.string(.puzzle, puzzle); w.string(.encoding, encoding)
        w.seconds(.seconds, seconds, required: PuzzlePlayed.secondsRequired(w.type)); w.extra(extra)
    }
}

/// A positive duration in seconds as written in the log (`42`, `12.75`).
///
/// Keeps the JSON literal for exact output and a `Double` for comparisons.
public struct Seconds: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The JSON number as written.
    public let literal: String
    /// Its value.
    public let value: Double

    /// Makes seconds from a JSON number literal; nil unless it is a finite
    /// number > 0 and at most 2^53 − 1 (the format's bound on numbers).
    public init?(literal: String) {
        var bytes = literal
        guard let v = bytes.withUTF8({ Seconds.value(ofLiteral: UnsafeRawBufferPointer($0)) }) else { return nil }
        self.literal = literal
        self.value = v
    }

    /// The value of the number literal `u` as seconds: nil unless it is a
    /// finite number > 0 and at most 2^53 − 1 (the rule of seconds; the
    /// second stage checks a line's bytes with it, making no string).
    static func value(ofLiteral u: UnsafeRawBufferPointer) -> Double? {
        // Whole seconds as digits (the writer's usual form): the integer is the value, exactly.
        if let n = FieldRules.integer(u) { return n > 0 && FieldRules.isInRange(n) ? Double(n) : nil }
        if let v = decimal(u) { return v > 0 ? v : nil }
        guard let v = Double(String(decoding: u, as: UTF8.self)), v.isFinite, v > 0, FieldRules.isInRange(v) else { return nil }
        return v
    }

    /// The value of `u` when it is `digits.digits` (no sign, no exponent)
    /// with at most 15 digits in all, else nil. Exactly `Double`'s reading
    /// of the text: the digits without the point are an integer below 10^15
    /// (< 2^53, exact as a `Double`), 10^k is exact for k ≤ 15, and one
    /// division of two exact values is correctly rounded, as `strtod` rounds
    /// (Clinger's fast path). Below 10^15, so within the format's bound.
    @inline(__always) private static func decimal(_ u: UnsafeRawBufferPointer) -> Double? {
        let n = u.count
        guard n >= 3, n <= 16 else { return nil }
        var mantissa = 0, point = -1
        for k in 0..<n {
            let d = u[k] &- 48
            if d < 10 {
                mantissa = mantissa &* 10 &+ Int(d)
            } else if u[k] == UInt8(ascii: "."), point < 0, k > 0, k < n &- 1 {
                point = k
            } else {
                return nil
            }
        }
        guard point > 0 else { return nil }
        var scale = 10.0
        for _ in point &+ 2..<n { scale *= 10 }
        return Double(mantissa) / scale
    }

    /// Makes seconds from a positive value of at most 2^53 − 1.
    public init?(_ value: Double) {
        guard value.isFinite, value > 0, FieldRules.isInRange(value) else { return nil }
        self.value = value
        self.literal = value < 1e15 && Double(Int64(value)) == value ? String(Int64(value)) : "\(value)"
    }

    public static func < (a: Seconds, b: Seconds) -> Bool { a.value < b.value }
    public static func == (a: Seconds, b: Seconds) -> Bool { a.literal == b.literal }
    public func hash(into h: inout Hasher) { h.combine(literal) }

    /// The literal as written.
    public var description: String { literal }
}
