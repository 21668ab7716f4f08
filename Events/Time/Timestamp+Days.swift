extension Timestamp {
    /// The same wall-clock time `days` calendar days later, in the same offset
    /// and written the same way (fraction digits, `Z`): the instant plus
    /// `days` × 86,400 s, since an offset has no daylight saving.
    package func adding(days: Int) -> Timestamp {
        let later = day.adding(days: days)
        return Timestamp(text: later.description + text.dropFirst(10),
                         instant: Instant(seconds: instant.seconds + Int64(days) * 86_400, nanoseconds: instant.nanoseconds),
                         offsetMinutes: offsetMinutes, day: later)
    }
}
