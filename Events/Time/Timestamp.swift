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
        // `YYYY-MM-DDTHH:MM:SS` read as three overlapping words (bytes 0-7,
        // 3-10 and 11-18), each compared with its pattern at once: every digit
        // `0-9` and every separator exactly `-`, `T`, `:`.
        @inline(__always) func word(_ k: Int) -> UInt64 { UInt64(littleEndian: u.loadUnaligned(fromByteOffset: k, as: UInt64.self)) }
        let date = word(0) ^ Timestamp.datePattern, middle = word(3) ^ Timestamp.middlePattern, time = word(11) ^ Timestamp.timePattern
        guard Timestamp.fits(date, digits: Timestamp.dateDigits), Timestamp.fits(middle, digits: Timestamp.middleDigits),
              Timestamp.fits(time, digits: Timestamp.timeDigits)
        else { return .failure(.malformed) }
        // Each digit's value is its byte of the word, the pattern's `0` taken away.
        @inline(__always) func lane(_ w: UInt64, _ k: Int) -> Int { Int(truncatingIfNeeded: (w &>> UInt64(8 &* k)) & 0xFF) }
        let year = lane(date, 0) &* 1000 &+ lane(date, 1) &* 100 &+ lane(date, 2) &* 10 &+ lane(date, 3)
        let month = lane(date, 5) &* 10 &+ lane(date, 6)
        let dom = lane(middle, 5) &* 10 &+ lane(middle, 6)
        let hour = lane(time, 0) &* 10 &+ lane(time, 1)
        let minute = lane(time, 3) &* 10 &+ lane(time, 4)
        let second = lane(time, 6) &* 10 &+ lane(time, 7)
        // The tail after the seconds, `[.fraction](Z|±hh:mm)`: as the writer
        // writes it (at most eight fraction digits) a word at a time, else
        // byte by byte, which finds what is broken.
        let tail: (nanos: Int, offset: Int)
        if let plain = plainTail(u) {
            tail = plain
        } else {
            switch anyTail(u) {
            case .success(let t): tail = t
            case .failure(let error): return .failure(error)
            }
        }
        guard let day = Day(year: year, month: month, day: dom) else { return .failure(.impossibleDate) }
        guard hour <= 23, minute <= 59, second <= 59 else { return .failure(.impossibleTime) }
        let local = Int64(day.ordinal) &* 86_400 &+ Int64(hour &* 3600 &+ minute &* 60 &+ second)
        return .success((Instant(seconds: local &- Int64(tail.offset &* 60), nanoseconds: Int32(truncatingIfNeeded: tail.nanos)), tail.offset, day))
    }

    /// The tail of `u` (at least 20 bytes, the first 19 checked) when it is
    /// plainly valid: `Z` or `±hh:mm` in range at the end, and before it
    /// nothing or `.` and one to eight digits; nil for any other tail
    /// (``anyTail(_:)`` reads it, finding the same values or the error).
    @inline(__always) private static func plainTail(_ u: UnsafeRawBufferPointer) -> (nanos: Int, offset: Int)? {
        let n = u.count
        @inline(__always) func word(_ k: Int) -> UInt64 { UInt64(littleEndian: u.loadUnaligned(fromByteOffset: k, as: UInt64.self)) }
        @inline(__always) func lane(_ w: UInt64, _ k: Int) -> Int { Int(truncatingIfNeeded: (w &>> UInt64(8 &* k)) & 0xFF) }
        var end = n &- 1   // where the fraction ends
        var offset = 0
        if u[end] != UInt8(ascii: "Z") {
            guard n >= 25 else { return nil }
            end = n &- 6
            // `±hh:mm`, the last six bytes, in lanes 0-5 (the sign's lane as written).
            let x = (word(n &- 8) &>> 16) ^ Timestamp.offsetPattern
            let sign = x & 0xFF
            guard sign == UInt64(UInt8(ascii: "+")) || sign == UInt64(UInt8(ascii: "-")),
                  Timestamp.fits(x & ~0xFF, digits: Timestamp.offsetDigits) else { return nil }
            let hours = lane(x, 1) &* 10 &+ lane(x, 2), minutes = lane(x, 4) &* 10 &+ lane(x, 5)
            guard hours <= 23, minutes <= 59 else { return nil }
            offset = (hours &* 60 &+ minutes) &* (sign == UInt64(UInt8(ascii: "-")) ? -1 : 1)
        }
        guard end != 19 else { return (0, offset) }
        let count = end &- 20
        guard u[19] == UInt8(ascii: "."), count >= 1, count <= 8 else { return nil }
        // The digits in lanes 0..<count (the word that ends where they end,
        // shifted down), 0 above: eight digits, the value times 10^(8 - count).
        let lanes: UInt64 = ~0 &>> UInt64(8 &* (8 &- count))
        let x = ((word(end &- 8) &>> UInt64(8 &* (8 &- count))) ^ 0x3030_3030_3030_3030) & lanes
        guard Timestamp.fits(x, digits: ~0) else { return nil }
        // Pairs, then fours, then all eight (lane 0 is the first digit).
        let pairs = (x &* 10 &+ (x &>> 8)) & 0x00FF_00FF_00FF_00FF
        let fours = (pairs &* 100 &+ (pairs &>> 16)) & 0x0000_FFFF_0000_FFFF
        let eight = (fours &* 10_000 &+ (fours &>> 32)) & 0xFFFF_FFFF
        return (Int(truncatingIfNeeded: eight) &* 10, offset)
    }

    /// The tail of `u` (at least 20 bytes, the first 19 checked) read byte by
    /// byte: its nanoseconds and offset, or the rule it breaks.
    @inline(never) private static func anyTail(_ u: UnsafeRawBufferPointer) -> Result<(nanos: Int, offset: Int), TimestampError> {
        let n = u.count
        // The digit at k (a value >= 10 when it is not one).
        @inline(__always) func d(_ k: Int) -> Int { Int(u[k] &- 48) }
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
        return .success((nanos, offset))
    }

    // The three words of `YYYY-MM-DDTHH:MM:SS` (bytes 0-7, 3-10, 11-18), byte
    // k of the text in byte k of the word (little-endian): each pattern holds
    // `0` where a digit goes and the separator elsewhere; `…Digits` holds 0xFF
    // in the digits' bytes. (TimestampTests checks them against their text.)
    /// `0000-00-`
    static let datePattern: UInt64 = 0x2D30_302D_3030_3030, dateDigits: UInt64 = 0x00FF_FF00_FFFF_FFFF
    /// `0-00-00T`
    static let middlePattern: UInt64 = 0x5430_302D_3030_2D30, middleDigits: UInt64 = 0x00FF_FF00_FFFF_00FF
    /// `00:00:00`
    static let timePattern: UInt64 = 0x3030_3A30_303A_3030, timeDigits: UInt64 = 0xFFFF_00FF_FF00_FFFF
    /// `±00:00` (the last six bytes of an offset, in bytes 0-5; the sign's byte 0)
    static let offsetPattern: UInt64 = 0x0000_3030_3A30_3000, offsetDigits: UInt64 = 0x0000_FFFF_00FF_FF00

    /// Whether `x` (a word of the line xor its pattern) is 0 in every
    /// separator's byte and 0-9 in every digit's (`digits`).
    @inline(__always) private static func fits(_ x: UInt64, digits: UInt64) -> Bool {
        // A digit's byte is below 16, and adding 6 leaves it below 16 (no carry
        // crosses a byte: the first test fails first for any byte of 250 or more).
        (x & ~digits) | (x & digits & 0xF0F0_F0F0_F0F0_F0F0) | ((x &+ (digits & 0x0606_0606_0606_0606)) & digits & 0x1010_1010_1010_1010) == 0
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
