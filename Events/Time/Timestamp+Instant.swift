extension Timestamp {
    /// Makes the timestamp of `instant` as a device on `offsetMinutes` writes it:
    /// `YYYY-MM-DDTHH:MM:SS[.fff]±hh:mm` (`Z` for offset 0 when `zulu` is true).
    ///
    /// `fractionDigits` (0 to 9) digits of the nanoseconds are written, truncated.
    /// The offset must be within ±23:59; it is clamped to that range otherwise.
    public init(instant: Instant, offsetMinutes: Int, fractionDigits: Int = 3, zulu: Bool = false) {
        let offset = min(max(offsetMinutes, -1439), 1439)
        let local = instant.seconds + Int64(offset * 60)
        let dayOrdinal = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = Int(local - dayOrdinal * 86_400)
        let day = Day(ordinal: Int(dayOrdinal))
        var text = day.description + "T" + Day.pad(secondOfDay / 3600, 2) + ":"
            + Day.pad(secondOfDay / 60 % 60, 2) + ":" + Day.pad(secondOfDay % 60, 2)
        let digits = min(max(fractionDigits, 0), 9)
        if digits > 0 {
            var fraction = Int(instant.nanoseconds)
            for _ in digits..<9 { fraction /= 10 }
            text += "." + Day.pad(fraction, digits)
        }
        if offset == 0 && zulu {
            text += "Z"
        } else {
            let magnitude = abs(offset)
            text += (offset < 0 ? "-" : "+") + Day.pad(magnitude / 60, 2) + ":" + Day.pad(magnitude % 60, 2)
        }
        self.text = text
        self.day = day
        self.offsetMinutes = offset
        // Truncating the fraction moves the instant to what the text says.
        var nanos = Int(instant.nanoseconds)
        var scale = 1
        for _ in digits..<9 { scale *= 10 }
        nanos = nanos / scale * scale
        self.instant = Instant(seconds: instant.seconds, nanoseconds: Int32(nanos))
    }
}
