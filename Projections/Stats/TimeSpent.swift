import Events

/// A running total of time spent, exact to the nanosecond: the `ms` of
/// answers and the `seconds` of puzzles and submissions, printed as the
/// spec's seconds (an integer when whole, else a decimal).
///
/// Saturates at `Int64.max` nanoseconds (about 292 years) instead of
/// overflowing on absurd logged values.
package struct TimeSpent: Sendable, Hashable {
    /// The total in nanoseconds.
    package private(set) var nanoseconds: Int64 = 0
    /// The same per day the time counts on (for the dashboard's chart).
    package private(set) var byDay: [Day: Int64] = [:]

    /// Nothing spent.
    package init() {}

    /// The total as exact seconds.
    package var seconds: ExactSeconds { ExactSeconds(nanoseconds: nanoseconds) }

    /// Adds a span of nanoseconds (>= 0), saturating.
    package mutating func add(nanoseconds n: Int64, on day: Day? = nil) {
        nanoseconds = Self.sum(nanoseconds, n)
        if let day { Self.accumulate(&byDay[day, default: 0], n) }   // one lookup, in place
    }

    /// `total += n`, saturating.
    private static func accumulate(_ total: inout Int64, _ n: Int64) { total = sum(total, n) }

    /// Adds another total, day by day.
    package mutating func add(_ other: TimeSpent) {
        nanoseconds = Self.sum(nanoseconds, other.nanoseconds)
        for (day, n) in other.byDay { byDay[day] = Self.sum(byDay[day] ?? 0, n) }
    }

    /// Adds milliseconds (an answer's `ms`) on a day.
    package mutating func add(ms: Int, on day: Day) { add(nanoseconds: Self.scaled(Int64(clamping: ms), 1_000_000), on: day) }

    /// Adds whole seconds (a submission's `seconds`) on a day.
    package mutating func add(wholeSeconds s: Int, on day: Day) {
        add(nanoseconds: Self.scaled(Int64(clamping: s), 1_000_000_000), on: day)
    }

    /// Adds a puzzle's `seconds` as written (`12.75`, `1e2`) on a day: its exact
    /// decimal value, rounded to the nanosecond (halves up) past 9 decimals.
    package mutating func add(_ s: Seconds, on day: Day) { add(nanoseconds: Self.nanoseconds(literal: s.literal), on: day) }

    /// `a + b`, saturating at `Int64.max`.
    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int64.max : s
    }

    /// `a * b`, saturating at `Int64.max`.
    private static func scaled(_ a: Int64, _ b: Int64) -> Int64 {
        let (p, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int64.max : p
    }

    /// The nanoseconds of a positive JSON number literal (`-`? int `.frac`? (`e` ±? digits)?).
    static func nanoseconds(literal: String) -> Int64 {
        var digits: [Int64] = []
        var fractionDigits = 0, exponent = 0, exponentSign = 1
        var part = 0   // 0: integer, 1: fraction, 2: exponent
        for u in literal.utf8 {
            switch u {
            case UInt8(ascii: "."): part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): part = 2
            case UInt8(ascii: "-"): if part == 2 { exponentSign = -1 }
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let d = Int64(u - UInt8(ascii: "0"))
                if part == 2 {
                    exponent = min(exponent * 10 + Int(d), 1_000)
                } else {
                    if digits.isEmpty && d == 0 && part == 0 { continue }
                    digits.append(d)
                    if part == 1 { fractionDigits += 1 }
                }
            default: break
            }
        }
        // value = digits × 10^(shift - 9) seconds, so nanoseconds = digits × 10^shift.
        let shift = exponentSign * exponent - fractionDigits + 9
        let kept = shift >= 0 ? digits.count : digits.count + shift
        guard kept >= 0 else { return 0 }
        var n: Int64 = 0
        for d in digits.prefix(kept) {
            let (m, o1) = n.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(d)
            if o1 || o2 { return Int64.max }
            n = s
        }
        if shift > 0 {
            for _ in 0..<shift {
                let (m, o) = n.multipliedReportingOverflow(by: 10)
                if o { return Int64.max }
                n = m
            }
        } else if kept < digits.count, digits[kept] >= 5 {
            n += 1
        }
        return n
    }
}
