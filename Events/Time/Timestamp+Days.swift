extension Timestamp {
    /// The same wall-clock time `days` calendar days later, in the same offset
    /// and written the same way (fraction digits, `Z`): the instant plus
    /// `days` × 86,400 s, since an offset has no daylight saving.
    package func adding(days: Int) -> Timestamp {
        let later = day.adding(days: days)
        // Appended as a substring (not `+`, whose generic form walks the
        // characters one by one: ~2,000 instructions a call, once for each
        // item to review in a state).
        var written = later.description
        written.append(contentsOf: text.dropFirst(10))
        return Timestamp(text: written,
                         instant: Instant(seconds: instant.seconds + Int64(days) * 86_400, nanoseconds: instant.nanoseconds),
                         offsetMinutes: offsetMinutes, day: later)
    }
}
