/// An RFC 3339 timestamp with an explicit UTC offset, as the learner's device wrote it.
///
/// Keeps the text exactly as written (`text`), the absolute `instant`, the
/// offset, and the learner's `day`: the calendar date in the timestamp's own offset.
public struct Timestamp: Sendable, Hashable, CustomStringConvertible {
    /// The timestamp exactly as written.
    public let text: String
    /// The absolute time.
    public let instant: Instant
    /// The UTC offset in minutes (`+03:00` is 180, `Z` is 0).
    public let offsetMinutes: Int
    /// The calendar date in the timestamp's own offset: the learner's day.
    public let day: Day

    /// The timestamp as written.
    public var description: String { text }

    /// Parses an RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|+hh:mm|-hh:mm)`.
    ///
    /// Throws a ``TimestampError`` that says which rule failed.
    public init(parsing text: String) throws(TimestampError) {
        var copy = text
        let parsed = copy.withUTF8 { Timestamp.parse(UnsafeRawBufferPointer($0)) }
        let (instant, offset, day) = try parsed.get()
        self.init(text: text, instant: instant, offsetMinutes: offset, day: day)
    }

    /// Makes a timestamp from its parts; `text` must be what they were parsed from.
    init(text: String, instant: Instant, offsetMinutes: Int, day: Day) {
        self.text = text
        self.instant = instant
        self.offsetMinutes = offsetMinutes
        self.day = day
    }

    /// Parses the UTF-8 bytes of a timestamp into its instant, offset and day.
    static func parse(_ u: UnsafeRawBufferPointer) -> Result<(Instant, Int, Day), TimestampError> {
        let n = u.count
        guard n >= 20 else { return .failure(.malformed) }
        // The digit at k (a value >= 10 when it is not one).
        @inline(__always) func d(_ k: Int) -> Int { Int(u[k] &- 48) }
        let digits = (d(0), d(1), d(2), d(3), d(5), d(6), d(8), d(9), d(11), d(12), d(14), d(15), d(17), d(18))
        guard digits.0 < 10, digits.1 < 10, digits.2 < 10, digits.3 < 10, digits.4 < 10, digits.5 < 10,
              digits.6 < 10, digits.7 < 10, digits.8 < 10, digits.9 < 10, digits.10 < 10, digits.11 < 10,
              digits.12 < 10, digits.13 < 10,
              u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
              u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":")
        else { return .failure(.malformed) }
        let year = digits.0 * 1000 + digits.1 * 100 + digits.2 * 10 + digits.3
        let month = digits.4 * 10 + digits.5
        let dom = digits.6 * 10 + digits.7
        let hour = digits.8 * 10 + digits.9
        let minute = digits.10 * 10 + digits.11
        let second = digits.12 * 10 + digits.13
        var i = 19
        var nanos = 0
        if u[i] == UInt8(ascii: ".") {
            i += 1
            var count = 0
            while i < n, d(i) < 10 {
                count += 1
                guard count <= 9 else { return .failure(.tooManyFractionDigits) }
                nanos = nanos * 10 + d(i)
                i += 1
            }
            guard count > 0 else { return .failure(.malformed) }
            for _ in count..<9 { nanos *= 10 }
        }
        guard i < n else { return .failure(.missingOffset) }
        var offset = 0
        switch u[i] {
        case UInt8(ascii: "Z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == n, d(i + 1) < 10, d(i + 2) < 10, u[i + 3] == UInt8(ascii: ":"), d(i + 4) < 10, d(i + 5) < 10
            else { return .failure(.malformed) }
            let oh = d(i + 1) * 10 + d(i + 2), om = d(i + 4) * 10 + d(i + 5)
            guard oh <= 23, om <= 59 else { return .failure(.invalidOffset) }
            offset = (oh * 60 + om) * (u[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        default:
            return .failure(.missingOffset)
        }
        guard i == n else { return .failure(.malformed) }
        guard let day = Day(year: year, month: month, day: dom) else { return .failure(.impossibleDate) }
        guard hour <= 23, minute <= 59, second <= 59 else { return .failure(.impossibleTime) }
        let local = Int64(day.ordinal) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return .success((Instant(seconds: local - Int64(offset * 60), nanoseconds: Int32(nanos)), offset, day))
    }

    /// The local time of day as written, `HH:MM:SS` (with its fraction, if any).
    package var localTime: Substring {
        let start = text.index(text.startIndex, offsetBy: 11)
        var end = text.index(start, offsetBy: 8)
        while end < text.endIndex, text[end] != "Z", text[end] != "+", text[end] != "-" {
            end = text.index(after: end)
        }
        return text[start..<end]
    }

    /// The offset as written: `Z` or `+hh:mm` / `-hh:mm`.
    package var offsetText: Substring {
        if text.hasSuffix("Z") { return text.suffix(1) }
        return text.suffix(6)
    }
}

/// Why a string is not an RFC 3339 timestamp of the ledger's form.
public enum TimestampError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not of the form `YYYY-MM-DDTHH:MM:SS[.fff](Z|±hh:mm)`.
    case malformed
    /// No `Z` or `±hh:mm` offset after the time.
    case missingOffset
    /// More than 9 fractional digits.
    case tooManyFractionDigits
    /// The offset's hours exceed 23 or its minutes 59.
    case invalidOffset
    /// The calendar date does not exist (2025-02-30, month 13).
    case impossibleDate
    /// The time of day does not exist (24:00:00, second 60).
    case impossibleTime

    /// The rule broken, for a person.
    public var description: String {
        switch self {
        case .malformed: "must be RFC 3339: YYYY-MM-DDTHH:MM:SS[.fraction] followed by Z or ±hh:mm"
        case .missingOffset: "must end with an explicit UTC offset (Z or ±hh:mm)"
        case .tooManyFractionDigits: "must have at most 9 fractional digits"
        case .invalidOffset: "has an offset out of range (hours 00-23, minutes 00-59)"
        case .impossibleDate: "names a date that does not exist"
        case .impossibleTime: "names a time that does not exist (hours 00-23, minutes and seconds 00-59)"
        }
    }
}
