@testable import Events

/// The timestamp parser as it was before the byte-level decoder (a frozen
/// copy, for the agreement tests): it builds the same ``Timestamp`` through
/// the internal memberwise initializer, so nothing of the new parser is used.
enum ReferenceTimestamp {
    static func parse(_ text: String) throws(TimestampError) -> Timestamp {
        let u = Array(text.utf8)
        func digit(_ i: Int) -> Int? {
            guard i < u.count, u[i] >= 48, u[i] <= 57 else { return nil }
            return Int(u[i] - 48)
        }
        func number(_ i: Int, _ n: Int) -> Int? {
            guard i + n <= u.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard u[k] >= 48, u[k] <= 57 else { return nil }
                v = v * 10 + Int(u[k] - 48)
            }
            return v
        }
        guard u.count >= 20,
              let year = number(0, 4), u[4] == UInt8(ascii: "-"),
              let month = number(5, 2), u[7] == UInt8(ascii: "-"),
              let dom = number(8, 2), u[10] == UInt8(ascii: "T"),
              let hour = number(11, 2), u[13] == UInt8(ascii: ":"),
              let minute = number(14, 2), u[16] == UInt8(ascii: ":"),
              let second = number(17, 2)
        else { throw .malformed }
        var i = 19
        var nanos = 0
        if i < u.count, u[i] == UInt8(ascii: ".") {
            i += 1
            var count = 0
            while let d = digit(i) {
                count += 1
                guard count <= 9 else { throw .tooManyFractionDigits }
                nanos = nanos * 10 + d
                i += 1
            }
            guard count > 0 else { throw .malformed }
            for _ in count..<9 { nanos *= 10 }
        }
        guard i < u.count else { throw .missingOffset }
        var offset = 0
        switch u[i] {
        case UInt8(ascii: "Z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == u.count, let oh = number(i + 1, 2), u[i + 3] == UInt8(ascii: ":"),
                  let om = number(i + 4, 2) else { throw .malformed }
            guard oh <= 23, om <= 59 else { throw .invalidOffset }
            offset = (oh * 60 + om) * (u[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        default:
            throw .missingOffset
        }
        guard i == u.count else { throw .malformed }
        guard let day = Day(year: year, month: month, day: dom) else { throw .impossibleDate }
        guard hour <= 23, minute <= 59, second <= 59 else { throw .impossibleTime }
        let local = Int64(day.ordinal) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Timestamp(text: text, instant: Instant(seconds: local - Int64(offset * 60), nanoseconds: Int32(nanos)),
                         offsetMinutes: offset, day: day)
    }
}
