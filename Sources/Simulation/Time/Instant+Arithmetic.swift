import Events

extension Instant {
    /// This instant moved by a whole number of milliseconds.
    func advanced(milliseconds: Int64) -> Instant {
        let total = Int64(nanoseconds) + (milliseconds % 1000) * 1_000_000
        var seconds = self.seconds + milliseconds / 1000 + total / 1_000_000_000
        var nanos = total % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        return Instant(seconds: seconds, nanoseconds: Int32(nanos))
    }

    /// This instant moved by `seconds`.
    func advanced(seconds: Int) -> Instant { advanced(milliseconds: Int64(seconds) * 1000) }

    /// Local midnight starting `day` on a device at `offsetMinutes`.
    static func midnight(of day: Day, offsetMinutes: Int) -> Instant {
        Instant(seconds: Int64(day.ordinal) * 86_400 - Int64(offsetMinutes) * 60, nanoseconds: 0)
    }
}
