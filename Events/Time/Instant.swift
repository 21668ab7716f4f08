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

    /// The exact time from `self` to `later`.
    public func duration(to later: Instant) -> ExactSeconds {
        ExactSeconds(nanoseconds: (later.seconds - seconds) * 1_000_000_000
                     + Int64(later.nanoseconds - nanoseconds))
    }
}

/// A span of time exact to the nanosecond, printed as an integer when whole,
/// otherwise as a decimal with no trailing zeros.
public struct ExactSeconds: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The span in nanoseconds.
    public let nanoseconds: Int64

    /// Makes a span of the given nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

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
