/// Arithmetic that holds at the ends of `Int` instead of trapping.
///
/// The format bounds every number at 2^53 − 1 (`FieldRules.largestNumber`),
/// but a log may hold any number of them: a balance of 1,100 grants of
/// 2^53 − 1 passes 2^63 − 1. docs/projections.md: "every count and total
/// that would pass 2^63 − 1 stays at it". Every sum, product or difference a
/// projection makes of values read from a log goes through these.
extension Int {
    /// `self + x`, held at `Int.max` (or `Int.min`) rather than overflowing.
    @inline(__always) package func saturating(plus x: Int) -> Int {
        let (r, o) = addingReportingOverflow(x)
        return o ? (x > 0 ? .max : .min) : r
    }

    /// `self - x`, held at `Int.min` (or `Int.max`) rather than overflowing.
    @inline(__always) package func saturating(minus x: Int) -> Int {
        let (r, o) = subtractingReportingOverflow(x)
        return o ? (x > 0 ? .min : .max) : r
    }

    /// `self * x`, held at `Int.max` (or `Int.min`) rather than overflowing.
    @inline(__always) package func saturating(times x: Int) -> Int {
        let (r, o) = multipliedReportingOverflow(by: x)
        return o ? ((self < 0) == (x < 0) ? .max : .min) : r
    }

    /// Adds `x` in place, saturating (``saturating(plus:)``).
    @inline(__always) package mutating func add(saturating x: Int) {
        self = saturating(plus: x)
    }
}
