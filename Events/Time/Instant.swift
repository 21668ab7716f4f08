/// An absolute point in time, to the nanosecond, independent of any offset.
public struct Instant: Sendable, Hashable, Comparable {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public let seconds: Int64
    /// Nanoseconds within the second, 0 ..< 1_000_000_000.
    public let nanoseconds: Int32

    /// Makes an instant from seconds since the epoch and nanoseconds within the second.
    public init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (a: Instant, b: Instant) -> Bool {
        a.seconds != b.seconds ? a.seconds < b.seconds : a.nanoseconds < b.nanoseconds
    }

    /// The exact time from `self` to `later`; a span past `Int64`'s
    /// nanoseconds (about 292 years: a log may hold years 1 and 9999) is held
    /// at its end rather than overflowing.
    public func duration(to later: Instant) -> ExactSeconds {
        ExactSeconds(later.seconds &- seconds, scale: 1_000_000_000, plus: Int64(later.nanoseconds &- nanoseconds))
    }
}

/// A span of time exact to the nanosecond, printed as an integer when whole,
/// otherwise as a decimal with no trailing zeros.
public struct ExactSeconds: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The span in nanoseconds.
    public let nanoseconds: Int64

    /// Makes a span of the given nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// `units × scale + plus` nanoseconds (`ms` and 1,000,000; seconds and
    /// 10^9), held at `Int64.max` or `Int64.min` rather than overflowing.
    package init(_ units: Int64, scale: Int64, plus: Int64 = 0) {
        let (product, o1) = units.multipliedReportingOverflow(by: scale)
        let (sum, o2) = product.addingReportingOverflow(plus)
        nanoseconds = o1 ? (units < 0 ? .min : .max) : o2 ? (plus < 0 ? .min : .max) : sum
    }

    public static func < (a: ExactSeconds, b: ExactSeconds) -> Bool { a.nanoseconds < b.nanoseconds }

    /// `12`, `12.5`, `-0.000000001`: exact, shortest form.
    public var description: String {
        let negative = nanoseconds < 0
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / 1_000_000_000
        var fraction = magnitude % 1_000_000_000
        var text = (negative ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = 9
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            text += "." + Day.pad(Int(fraction), digits)
        }
        return text
    }
}
