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

    /// Parses the UTF-8 bytes of a timestamp into its instant, offset and day
    /// (``parts(_:)`` as a `Result`, for callers that match on it: inline, so
    /// nothing is stored for the `Result` or the tuple).
    @inline(__always)
    static func parse(_ u: UnsafeRawBufferPointer) -> Result<(Instant, Int, Day), TimestampError> {
        do throws(TimestampError) { return .success(try parts(u)) } catch { return .failure(error) }
    }

    /// Parses the UTF-8 bytes of a timestamp into its instant, offset and day,
    /// or throws the rule it breaks (typed: the parts come back in registers).
    static func parts(_ u: UnsafeRawBufferPointer) throws(TimestampError) -> (Instant, Int, Day) {
        let n = u.count
        guard n >= 20 else { throw .malformed }
        // `YYYY-MM-DDTHH:MM:SS` read as three overlapping words (bytes 0-7,
        // 3-10 and 11-18), each compared with its pattern at once: every digit
        // `0-9` and every separator exactly `-`, `T`, `:`.
        @inline(__always) func word(_ k: Int) -> UInt64 { UInt64(littleEndian: u.loadUnaligned(fromByteOffset: k, as: UInt64.self)) }
        let date = word(0) ^ Timestamp.datePattern, middle = word(3) ^ Timestamp.middlePattern, time = word(11) ^ Timestamp.timePattern
        // One test for the three (each is 0 when its word fits).
        guard Timestamp.misfit(date, digits: Timestamp.dateDigits) | Timestamp.misfit(middle, digits: Timestamp.middleDigits)
                | Timestamp.misfit(time, digits: Timestamp.timeDigits) == 0
        else { throw .malformed }
        // Each digit's value is its byte of the word, the pattern's `0` taken
        // away; lane k of `pairs(w)` is the two digits from byte k on.
        @inline(__always) func lane(_ w: UInt64, _ k: Int) -> Int { Int(truncatingIfNeeded: (w &>> UInt64(8 &* k)) & 0xFF) }
        let datePairs = Timestamp.pairs(date), timePairs = Timestamp.pairs(time)
        let year = lane(datePairs, 0) &* 100 &+ lane(datePairs, 2)
        let month = lane(datePairs, 5)
        let dom = lane(middle, 5) &* 10 &+ lane(middle, 6)
        let hour = lane(timePairs, 0), minute = lane(timePairs, 3), second = lane(timePairs, 6)
        // The tail after the seconds, `[.fraction](Z|±hh:mm)`: as the writer
        // writes it (at most eight fraction digits) a word at a time, else
        // byte by byte, which finds what is broken.
        let tail: (nanos: Int, offset: Int)
        if let plain = plainTail(u) { tail = plain } else { tail = try anyTail(u) }
        guard let day = Day(year: year, month: month, day: dom) else { throw .impossibleDate }
        guard hour <= 23, minute <= 59, second <= 59 else { throw .impossibleTime }
        let local = Int64(day.ordinal) &* 86_400 &+ Int64(hour &* 3600 &+ minute &* 60 &+ second)
        return (Instant(seconds: local &- Int64(tail.offset &* 60), nanoseconds: Int32(truncatingIfNeeded: tail.nanos)), tail.offset, day)
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
            // `±hh:mm`, the last six bytes, in lanes 0-5. The pattern's sign is
            // `+`; a `-` (the sign's lane then `offsetMinus`) is taken out of
            // the sign's lane before the test, and says the offset is negative.
            let x = (word(n &- 8) &>> 16) ^ Timestamp.offsetPattern
            let minus = x & 0xFF == Timestamp.offsetMinus ? Timestamp.offsetMinus : 0
            guard Timestamp.fits(x ^ minus, digits: Timestamp.offsetDigits) else { return nil }
            let offsetPairs = Timestamp.pairs(x ^ minus)
            let hours = lane(offsetPairs, 1), minutes = lane(offsetPairs, 4)
            guard hours <= 23, minutes <= 59 else { return nil }
            offset = minus == 0 ? hours &* 60 &+ minutes : 0 &- (hours &* 60 &+ minutes)
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
    @inline(never) private static func anyTail(_ u: UnsafeRawBufferPointer) throws(TimestampError) -> (nanos: Int, offset: Int) {
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
                guard count <= 9 else { throw .tooManyFractionDigits }
                nanos = nanos * 10 + d(i)
                i += 1
            }
            guard count > 0 else { throw .malformed }
            for _ in count..<9 { nanos *= 10 }
        }
        guard i < n else { throw .missingOffset }
        var offset = 0
        switch u[i] {
        case UInt8(ascii: "Z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == n, d(i + 1) < 10, d(i + 2) < 10, u[i + 3] == UInt8(ascii: ":"), d(i + 4) < 10, d(i + 5) < 10
            else { throw .malformed }
            let oh = d(i + 1) * 10 + d(i + 2), om = d(i + 4) * 10 + d(i + 5)
            guard oh <= 23, om <= 59 else { throw .invalidOffset }
            offset = (oh * 60 + om) * (u[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        default:
            throw .missingOffset
        }
        guard i == n else { throw .malformed }
        return (nanos, offset)
    }

    // The three words of `YYYY-MM-DDTHH:MM:SS` (bytes 0-7, 3-10, 11-18), byte
    // k of the text in byte k of the word (little-endian): each pattern holds
    // `0` where a digit goes and the separator elsewhere; `…Digits` holds 0xFF
    // in the digits' bytes. (TimestampRuleTests checks them against their text.)
    /// `0000-00-`
    static let datePattern: UInt64 = 0x2D30_302D_3030_3030, dateDigits: UInt64 = 0x00FF_FF00_FFFF_FFFF
    /// `0-00-00T`
    static let middlePattern: UInt64 = 0x5430_302D_3030_2D30, middleDigits: UInt64 = 0x00FF_FF00_FFFF_00FF
    /// `00:00:00`
    static let timePattern: UInt64 = 0x3030_3A30_303A_3030, timeDigits: UInt64 = 0xFFFF_00FF_FF00_FFFF
    /// `+00:00` (the last six bytes of an offset, in bytes 0-5; the sign's byte 0);
    /// `offsetMinus` is `-` xor `+`: the sign's byte of a `-` offset xor the pattern.
    static let offsetPattern: UInt64 = 0x0000_3030_3A30_302B, offsetDigits: UInt64 = 0x0000_FFFF_00FF_FF00,
               offsetMinus: UInt64 = UInt64(UInt8(ascii: "-") ^ UInt8(ascii: "+"))

    /// Whether `x` (a word of the line xor its pattern) is 0 in every
    /// separator's byte and 0-9 in every digit's (`digits`).
    @inline(__always) private static func fits(_ x: UInt64, digits: UInt64) -> Bool { misfit(x, digits: digits) == 0 }

    /// ``fits(_:digits:)`` before its test: 0 exactly when `x` fits (so that
    /// several words' misfits are or-ed and tested once).
    @inline(__always) private static func misfit(_ x: UInt64, digits: UInt64) -> UInt64 {
        // Each byte's limit, 9 for a digit's and 0 for a separator's: the byte
        // plus 127 - limit reaches 128 (its top bit) exactly when the byte is
        // past its limit, for bytes below 128; a byte of 128 or more has its
        // top bit already. No byte below 128 carries into the next, so the
        // lowest byte that does not fit always shows, whatever is above it.
        (x | (x &+ (0x7F7F_7F7F_7F7F_7F7F &- digits & 0x0909_0909_0909_0909))) & 0x8080_8080_8080_8080
    }

    /// Two digits' values at once: byte k of the result is 10 × byte k + byte
    /// k + 1 of `x` (a word that fits, its digits' bytes 0-9 and its
    /// separators' 0: every byte stays below 100, so none carries into the next).
    @inline(__always) private static func pairs(_ x: UInt64) -> UInt64 { x &* 10 &+ (x &>> 8) }

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
