import Testing
import Events

@Suite("Timestamps and learner days")
struct TimestampTests {
    @Test("the day is the calendar date in the timestamp's own offset")
    func learnerDay() {
        #expect(ts("2025-10-21T23:55:12+03:00").day.description == "2025-10-21")
        #expect(ts("2025-10-21T20:55:12Z").day.description == "2025-10-21")
        #expect(ts("2025-10-22T01:00:00+09:00").day.description == "2025-10-22")
        #expect(ts("2025-10-21T23:30:00-08:00").day.description == "2025-10-21")
    }

    @Test("instants compare as absolute times whatever the offsets")
    func instants() {
        let tokyo = ts("2025-10-22T01:00:00+09:00")   // 2025-10-21T16:00Z
        let la = ts("2025-10-21T10:00:00-08:00")      // 2025-10-21T18:00Z
        #expect(tokyo.instant < la.instant)
        #expect(tokyo.day > la.day)
        #expect(ts("2025-10-21T20:55:12Z").instant == ts("2025-10-21T23:55:12+03:00").instant)
        #expect(ts("1970-01-01T00:00:00Z").instant == Instant(seconds: 0, nanoseconds: 0))
        #expect(ts("2000-03-01T00:00:00.5Z").instant == Instant(seconds: 951_868_800, nanoseconds: 500_000_000))
    }

    @Test("seconds between instants are exact", arguments: [
        ("2025-01-01T00:00:00Z", "2025-01-01T00:01:30Z", "90"),
        ("2025-01-01T00:00:00.25Z", "2025-01-01T00:00:01Z", "0.75"),
        ("2025-01-01T00:00:00Z", "2025-01-01T00:00:00.000000001Z", "0.000000001"),
        ("2025-01-01T03:00:00+03:00", "2025-01-01T00:00:02Z", "2"),
    ])
    func exactSeconds(start: String, end: String, expected: String) {
        #expect(ts(start).instant.duration(to: ts(end).instant).description == expected)
    }

    @Test("days parse, print and count across month and leap-year ends")
    func days() throws {
        let d = try #require(Day("2024-02-28"))
        #expect(d.adding(days: 1).description == "2024-02-29")
        #expect(d.adding(days: 2).description == "2024-03-01")
        #expect(Day("2025-02-29") == nil)
        #expect(Day("2025-1-01") == nil)
        #expect(try #require(Day("1969-12-31")).ordinal == -1)
        #expect(try #require(Day("2000-01-01")).ordinal == 10957)
    }

    @Test("every byte of YYYY-MM-DDTHH:MM:SS replaced by every byte value: parsed exactly when a digit stays a digit and a separator itself")
    func everyByteOfTheFixedPart() {
        // Checked byte by byte here, as RFC 3339's grammar reads it (the parser reads three words at once).
        let separators: [Int: UInt8] = [4: UInt8(ascii: "-"), 7: UInt8(ascii: "-"), 10: UInt8(ascii: "T"), 13: UInt8(ascii: ":"), 16: UInt8(ascii: ":")]
        for text in ["2025-10-21T08:15:00+03:00", "2024-01-01T00:00:00Z", "1999-12-31T23:59:59.5-05:30"] {
            let base = Array(text.utf8)
            for position in 0..<19 {
                for value in 0...255 {
                    var bytes = base
                    bytes[position] = UInt8(value)
                    let kept = separators[position].map { $0 == UInt8(value) } ?? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(UInt8(value))
                    let parsed = (try? Timestamp(parsing: String(decoding: bytes, as: UTF8.self))) != nil
                    // A digit kept may still name a date or time that does not exist (month 19, hour 28): only those fail then.
                    if !kept { #expect(!parsed, "\(String(decoding: bytes, as: UTF8.self))") }
                    if kept, parsed {
                        let t = try? Timestamp(parsing: String(decoding: bytes, as: UTF8.self))
                        let digits = bytes.map { Int($0) - 48 }
                        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
                        #expect(t?.day.components.year == year && t?.day.components.month == digits[5] * 10 + digits[6]
                                && t?.day.components.day == digits[8] * 10 + digits[9], "\(String(decoding: bytes, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(ts("2025-10-21T08:15:07+03:00").instant.seconds == 1_761_023_707)
        #expect(ts("1970-01-01T00:00:00Z").instant.seconds == 0)
        #expect(ts("2000-02-29T23:59:59-00:01").instant.seconds == 951_868_859)
    }

    @Test("percentages round halves up")
    func percent() {
        #expect(Percent.of(1, 8) == 13)     // 12.5
        #expect(Percent.of(1, 3) == 33)
        #expect(Percent.of(2, 3) == 67)
        #expect(Percent.of(3, 5) == 60)
        #expect(Percent.of(0, 0) == nil)
        #expect(Percent.of(7, 7) == 100)
    }
}
