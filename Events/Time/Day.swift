/// A calendar date with no time zone: the learner's day of an event.
///
/// Days are counted as dates, never as 24-hour spans, so DST changes and
/// travel never create or remove a day. `ordinal` counts days from 1970-01-01.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let ordinal: Int

    /// Makes the day with the given ordinal (days since 1970-01-01).
    public init(ordinal: Int) { self.ordinal = ordinal }

    /// Makes a day from a year, month and day of month; nil when that date does not exist.
    @inline(__always)
    public init?(year: Int, month: Int, day: Int) {
        // Each range as one unsigned compare (a value below the range wraps to a large one).
        guard UInt(bitPattern: year &- 1) < 9999, UInt(bitPattern: month &- 1) < 12,
              UInt(bitPattern: day &- 1) < UInt(bitPattern: Day.daysIn(month: month, year: year)) else { return nil }
        self.ordinal = Day.ordinal(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`; nil when malformed or the date does not exist.
    public init?(_ text: String) {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              let y = Day.digits(u, 0, 4), let m = Day.digits(u, 5, 2), let d = Day.digits(u, 8, 2)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The (year, month, day) of this date in the proleptic Gregorian calendar.
    public var components: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The date `n` days later (earlier for negative `n`).
    public func adding(days n: Int) -> Day { Day(ordinal: ordinal + n) }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (y, m, d) = components
        guard (0...9999).contains(y) else { return Day.pad(y, 4) + "-" + Day.pad(m, 2) + "-" + Day.pad(d, 2) }
        // The ten bytes written at once: no intermediate strings (days are printed for every item of a state).
        return String(unsafeUninitializedCapacity: 10) { out in
            func put(_ value: Int, endingAt end: Int, width: Int) {
                var v = value
                for k in stride(from: end - 1, through: end - width, by: -1) {
                    out[k] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
            }
            put(y, endingAt: 4, width: 4)
            put(m, endingAt: 7, width: 2)
            put(d, endingAt: 10, width: 2)
            out[4] = UInt8(ascii: "-")
            out[7] = UInt8(ascii: "-")
            return 10
        }
    }

    public static func < (a: Day, b: Day) -> Bool { a.ordinal < b.ordinal }

    // MARK: - Calendar arithmetic (package: Timestamp uses it)

    @inline(__always)
    package static func ordinal(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil: years from March, so that a leap
        // day is the last of its year.
        let y = month <= 2 ? year - 1 : year
        let mp = month > 2 ? month - 3 : month + 9
        if y >= 0, mp >= 0 {
            // Every date the format writes (years 1-9999, months 1-12): the
            // same count on values known not negative, its 400-year eras
            // unfolded (era × 146,097 = 365 × 400 × era + 100 × era − 4 × era
            // + era), so that one division by 100 is left (a multiply and a
            // shift): y / 400 is (y / 100) / 4.
            let uy = UInt(bitPattern: y), hundreds = uy / 100
            let days = uy &* 365 &+ uy &>> 2 &- hundreds &+ hundreds &>> 2 &+ (153 &* UInt(bitPattern: mp) &+ 2) / 5
            return Int(bitPattern: days) + day - 719_469
        }
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    @inline(__always)
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    package static func digits(_ u: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var v = 0
        for i in start..<(start + count) {
            let c = u[i]
            guard c >= 48, c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }

    package static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
