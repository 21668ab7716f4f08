import Foundation
import Testing
@testable import Events

/// The `at` rule (`Timestamp.parse`, read a word at a time) and the calendar
/// (`Day`) against the rule written out byte by byte here, as events-v1.md and
/// RFC 3339 state it, and against Foundation's Gregorian calendar.
@Suite("The at rule and the calendar, against references written byte by byte")
struct TimestampRuleTests {
    /// What a timestamp parses to: the instant, offset and day, or the rule broken.
    struct Parsed: Equatable, CustomStringConvertible {
        var seconds: Int64 = 0, nanos = 0, offset = 0, ordinal = 0
        var error: TimestampError? = nil
        var description: String { error.map { "\($0)" } ?? "\(seconds).\(nanos) \(offset) day \(ordinal)" }
    }

    /// Days from 0001-01-01 to the first of `year`, by the Gregorian rule of leap years stated plainly.
    static func daysBefore(year: Int) -> Int {
        let y = year - 1
        return 365 * y + y / 4 - y / 100 + y / 400
    }

    static func isLeap(_ year: Int) -> Bool { year % 400 == 0 || (year % 4 == 0 && year % 100 != 0) }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01 (0001-01-01 is day -719,162), month by month.
    static func ordinal(_ year: Int, _ month: Int, _ day: Int) -> Int {
        var days = daysBefore(year: year)
        for m in 1..<month { days += daysIn(m, year) }
        return days + day - 1 - 719_162
    }

    /// The rule read byte by byte, in the decoder's order of errors: the
    /// fixed part, the fraction, the offset, the end, the date, the time.
    static func reference(_ b: [UInt8]) -> Parsed {
        func fail(_ e: TimestampError) -> Parsed { Parsed(error: e) }
        func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }
        func number(_ ks: ClosedRange<Int>) -> Int? {
            var v = 0
            for k in ks {
                guard isDigit(k) else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            return v
        }
        func byte(_ k: Int, _ c: Character) -> Bool { k < b.count && b[k] == c.asciiValue }
        guard b.count >= 20 else { return fail(.malformed) }
        guard let year = number(0...3), byte(4, "-"), let month = number(5...6), byte(7, "-"), let day = number(8...9), byte(10, "T"),
              let hour = number(11...12), byte(13, ":"), let minute = number(14...15), byte(16, ":"), let second = number(17...18)
        else { return fail(.malformed) }
        var i = 19
        var nanos = 0
        if byte(i, ".") {
            var digits = ""
            i += 1
            while isDigit(i) {
                digits.append(Character(Unicode.Scalar(b[i])))
                i += 1
            }
            guard digits.count <= 9 else { return fail(.tooManyFractionDigits) }
            guard !digits.isEmpty else { return fail(.malformed) }
            nanos = Int(digits + String(repeating: "0", count: 9 - digits.count)) ?? -1
        }
        guard i < b.count else { return fail(.missingOffset) }
        var offset = 0
        if byte(i, "Z") {
            i += 1
        } else if byte(i, "+") || byte(i, "-") {
            guard b.count == i + 6, let oh = number(i + 1...i + 2), byte(i + 3, ":"), let om = number(i + 4...i + 5) else { return fail(.malformed) }
            guard oh <= 23, om <= 59 else { return fail(.invalidOffset) }
            offset = (oh * 60 + om) * (byte(i, "-") ? -1 : 1)
            i += 6
        } else {
            return fail(.missingOffset)
        }
        guard i == b.count else { return fail(.malformed) }
        guard year >= 1, month >= 1, month <= 12, day >= 1, day <= daysIn(month, year) else { return fail(.impossibleDate) }
        guard hour <= 23, minute <= 59, second <= 59 else { return fail(.impossibleTime) }
        let days = ordinal(year, month, day)
        let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Parsed(seconds: local - Int64(offset * 60), nanos: nanos, offset: offset, ordinal: days)
    }

    /// What the library makes of `b` (through its public parser).
    static func parsed(_ b: [UInt8]) -> Parsed {
        do {
            let t = try Timestamp(parsing: String(decoding: b, as: UTF8.self))
            return Parsed(seconds: t.instant.seconds, nanos: Int(t.instant.nanoseconds), offset: t.offsetMinutes, ordinal: t.day.ordinal)
        } catch {
            return Parsed(error: error)
        }
    }

    /// Valid timestamps of every tail the rule allows: no fraction and 1 to
    /// 9 digits, `Z` and offsets at their ends.
    static let valid: [String] = {
        var out: [String] = []
        let fractions = ["", ".5", ".25", ".125", ".0625", ".03125", ".015625", ".0078125", ".00390625", ".001953125"]
        let offsets = ["Z", "+00:00", "-00:00", "+23:59", "-23:59", "+05:30", "-11:45"]
        for (k, fraction) in fractions.enumerated() {
            for (j, offset) in offsets.enumerated() where (k + j) % 2 == 0 || k < 3 || j < 2 {
                out.append("2025-10-21T08:15:07" + fraction + offset)
            }
        }
        return out
    }()

    @Test("every byte value at every position of valid timestamps of every tail: the same instant, offset and day, or the same rule broken")
    func everyByteEverywhere() {
        var differ: [String] = [], kept = 0, cases = 0
        for text in TimestampRuleTests.valid {
            let base = Array(text.utf8)
            #expect(TimestampRuleTests.parsed(base) == TimestampRuleTests.reference(base) && TimestampRuleTests.reference(base).error == nil, "\(text)")
            for position in base.indices {
                for value in 0...255 {
                    var bytes = base
                    bytes[position] = UInt8(value)
                    let expected = TimestampRuleTests.reference(bytes)
                    cases += 1
                    if expected.error == nil { kept += 1 }
                    if TimestampRuleTests.parsed(bytes) != expected {
                        differ.append("\(String(decoding: bytes, as: UTF8.self)): \(TimestampRuleTests.parsed(bytes)) vs \(expected)")
                    }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        #expect(cases > 100_000 && kept > 5_000)
    }

    @Test("every length: each valid timestamp cut at every length, and with a byte inserted at every position")
    func everyLength() {
        var differ: [String] = []
        for text in TimestampRuleTests.valid {
            let base = Array(text.utf8)
            var variants = (0...base.count).map { Array(base.prefix($0)) }
            for position in 0...base.count {
                for insert in Array("0.9Z+-:".utf8) {
                    var bytes = base
                    bytes.insert(insert, at: position)
                    variants.append(bytes)
                }
            }
            // Fractions of 0 to 12 digits before each ending.
            for digits in 0...12 {
                for ending in ["Z", "+01:00", "-01:00", ""] {
                    variants.append(Array(("2024-02-29T23:59:59" + (digits > 0 ? "." + String(repeating: "7", count: digits) : ".") + ending).utf8))
                }
            }
            for bytes in variants where TimestampRuleTests.parsed(bytes) != TimestampRuleTests.reference(bytes) {
                differ.append("\(String(decoding: bytes, as: UTF8.self)): \(TimestampRuleTests.parsed(bytes)) vs \(TimestampRuleTests.reference(bytes))")
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
    }

    @Test("every month's first, last and one-past-last day, day 00, months 00 and 13, across leap years; hours, minutes and seconds at their ends")
    func calendarEdges() {
        var differ: [String] = [], valid = 0
        for year in [1, 4, 100, 400, 1582, 1600, 1900, 1969, 1970, 2000, 2023, 2024, 2100, 2400, 9999] {
            for month in 0...13 {
                let last = (1...12).contains(month) ? TimestampRuleTests.daysIn(month, year) : 31
                for day in Set([0, 1, 28, 29, 30, 31, last, last + 1]) where day <= 99 {
                    for time in ["00:00:00", "23:59:59", "24:00:00", "23:60:00", "23:59:60", "12:34:56"] {
                        let text = String(format: "%04d-%02d-%02dT", year, month, day) + time + ".5+01:00"
                        let bytes = Array(text.utf8)
                        let expected = TimestampRuleTests.reference(bytes)
                        if expected.error == nil { valid += 1 }
                        if TimestampRuleTests.parsed(bytes) != expected { differ.append("\(text): \(TimestampRuleTests.parsed(bytes)) vs \(expected)") }
                    }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        #expect(valid > 500)
        // Year 0000 does not exist in the format (years 1-9999).
        #expect(TimestampRuleTests.parsed(Array("0000-01-01T00:00:00Z".utf8)).error == .impossibleDate)
    }

    @Test("the instant of a timestamp as Foundation's Gregorian calendar counts it (years 1600 to 9999)")
    func instantsAsFoundationCounts() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        var differ: [String] = []
        for year in [1600, 1899, 1900, 1969, 1970, 1999, 2000, 2024, 2025, 2100, 2400, 9999] {
            for month in 1...12 {
                for day in [1, 15, TimestampRuleTests.daysIn(month, year)] {
                    for (time, offset) in [("00:00:00", "Z"), ("23:59:59", "-23:59"), ("12:30:15", "+05:30")] {
                        let text = String(format: "%04d-%02d-%02dT", year, month, day) + time + offset
                        let t = try Timestamp(parsing: text)
                        let parts = time.split(separator: ":").compactMap { Int($0) }
                        let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day,
                                                                                   hour: parts[0], minute: parts[1], second: parts[2])))
                        let local = Int64(date.timeIntervalSince1970.rounded())
                        if t.instant.seconds != local - Int64(t.offsetMinutes * 60) || t.day.components != (year, month, day) {
                            differ.append(text)
                        }
                    }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
    }

    @Test("every day of years 1 to 9999: its ordinal one more than the day before's, and its components back")
    func everyDay() throws {
        var expected = -719_162   // 0001-01-01
        var differ: [String] = []
        for year in 1...9999 {
            for month in 1...12 {
                for day in 1...TimestampRuleTests.daysIn(month, year) {
                    if Day.ordinal(year: year, month: month, day: day) != expected { differ.append("\(year)-\(month)-\(day)") }
                    expected += 1
                }
                if differ.count > 5 { break }
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        #expect(expected == TimestampRuleTests.ordinal(10000, 1, 1))
        for ordinal in stride(from: -719_162, to: 2_932_897, by: 997) {
            let (y, m, d) = Day(ordinal: ordinal).components
            #expect(Day(year: y, month: m, day: d)?.ordinal == ordinal)
        }
    }

    @Test("every day of 1970 to 2100 at a time with a fraction and an offset: the instant, offset and day Foundation's Gregorian calendar gives")
    func everyDayAsFoundationCounts() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        let start = try #require(calendar.date(from: DateComponents(year: 1970, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 2101, month: 1, day: 1)))
        let endings = [("Z", 0), ("+05:30", 330), ("-11:45", -705), ("+23:59", 1439), ("-00:00", 0)]
        var differ: [String] = [], days = 0
        var date = start
        while date < end {
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            let (year, month, day) = (c.year ?? 0, c.month ?? 0, c.day ?? 0)
            let (ending, minutes) = endings[days % endings.count]
            let fraction = [".5", "", ".123456", ".00000001", ".987654321"][days % 5]
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, days % 24, days % 60, (days / 7) % 60) + fraction + ending
            let local = Int64(date.timeIntervalSince1970.rounded()) + Int64((days % 24) * 3600 + (days % 60) * 60 + (days / 7) % 60)
            let nanos = Int(((fraction.isEmpty ? "" : String(fraction.dropFirst())) + String(repeating: "0", count: 10 - fraction.count)).prefix(9)) ?? -1
            do {
                let t = try Timestamp(parsing: text)
                if t.instant.seconds != local - Int64(minutes * 60) || Int(t.instant.nanoseconds) != nanos || t.offsetMinutes != minutes
                    || t.day.components != (year, month, day) || t.day.ordinal != days {
                    differ.append(text)
                }
            } catch {
                differ.append("\(text): \(error)")
            }
            days += 1
            date = try #require(calendar.date(byAdding: .day, value: 1, to: date))
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        #expect(days == 47_847)
    }

    @Test("every month and day written with two digits (00-99), in common, leap and century years: parsed as the byte-by-byte reference says")
    func everyMonthAndDayWritten() {
        var differ: [String] = [], valid = 0
        for year in [1, 1900, 1970, 2000, 2023, 2024, 2100, 9999] {
            for month in 0...99 {
                for day in 0...99 {
                    let bytes = Array((String(format: "%04d-%02d-%02d", year, month, day) + "T07:08:09.25-03:30").utf8)
                    let expected = TimestampRuleTests.reference(bytes)
                    if expected.error == nil { valid += 1 }
                    if TimestampRuleTests.parsed(bytes) != expected { differ.append(String(decoding: bytes, as: UTF8.self)) }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        // 365 days in four of the years, 366 in 2000 and 2024, 365 in 1900 and 2100 (not leap).
        #expect(valid == 6 * 365 + 2 * 366)
    }

    @Test("every hour and minute, and every second, written with two digits (00-99), and offsets' hours and minutes the same: as the reference says")
    func everyTimeWritten() {
        var differ: [String] = [], valid = 0
        var texts: [String] = []
        for a in 0...99 {
            for b in 0...99 {
                texts.append(String(format: "2024-02-29T%02d:%02d:30Z", a, b))
                texts.append(String(format: "2024-02-29T12:%02d:%02d.1+01:00", a, b))
                texts.append(String(format: "2024-02-29T12:00:00-%02d:%02d", a, b))
                texts.append(String(format: "2024-02-29T12:00:00.123+%02d:%02d", a, b))
            }
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let expected = TimestampRuleTests.reference(bytes)
            if expected.error == nil { valid += 1 }
            if TimestampRuleTests.parsed(bytes) != expected { differ.append(text) }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        #expect(valid == 24 * 60 + 60 * 60 + 2 * 24 * 60)
    }

    @Test("a date as Day makes it from its numbers: years 0 and 10000, months 0 and 13, days 0 and one past the month's last, refused")
    func dayFromNumbers() {
        var differ: [String] = []
        for year in [-1, 0, 1, 4, 100, 400, 1900, 2000, 2023, 2024, 2100, 9996, 9999, 10_000, 10_400] {
            for month in -1...14 {
                for day in -1...33 {
                    let exists = year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= TimestampRuleTests.daysIn(month, year)
                    let made = Day(year: year, month: month, day: day)
                    if exists ? made?.ordinal != TimestampRuleTests.ordinal(year, month, day) : made != nil { differ.append("\(year)-\(month)-\(day)") }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
    }

    @Test("the patterns the parser reads words with are the text they say")
    func patterns() {
        func word(_ text: String) -> UInt64 {
            Array(text.utf8).enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
        }
        func digits(_ text: String) -> UInt64 {
            Array(text.utf8).enumerated().reduce(0) { $0 | ($1.element == UInt8(ascii: "0") ? 0xFF << UInt64(8 * $1.offset) : 0) }
        }
        #expect(Timestamp.datePattern == word("0000-00-") && Timestamp.dateDigits == digits("0000-00-"))
        #expect(Timestamp.middlePattern == word("0-00-00T") && Timestamp.middleDigits == digits("0-00-00T"))
        #expect(Timestamp.timePattern == word("00:00:00") && Timestamp.timeDigits == digits("00:00:00"))
        #expect(Timestamp.offsetPattern == word("+00:00") && Timestamp.offsetDigits == digits("+00:00"))
        #expect(Timestamp.offsetPattern ^ Timestamp.offsetMinus == word("-00:00"))
    }
}
