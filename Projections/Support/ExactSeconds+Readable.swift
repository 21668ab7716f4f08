import Events

extension ExactSeconds {
    /// The span for a person, in its two largest units: `45s`, `12.5s`,
    /// `12m 05s`, `3h 37m`, `2d 03h` (a negative span, from a clock that went
    /// back, starts with `-`). The one rendering of a duration in text and
    /// HTML: the state's text, the dashboard, the audit. JSON and CSV keep
    /// exact seconds.
    package var readable: String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = ExactSeconds(nanoseconds: nanoseconds == .min ? .max : abs(nanoseconds))
        let total = Int(magnitude.nanoseconds / 1_000_000_000)
        let text: String
        if total < 60 {
            text = "\(magnitude)s"
        } else if total < 3600 {
            text = "\(total / 60)m \(Day.pad(total % 60, 2))s"
        } else if total < 86_400 {
            text = "\(total / 3600)h \(Day.pad(total / 60 % 60, 2))m"
        } else {
            text = "\(total / 86_400)d \(Day.pad(total / 3600 % 24, 2))h"
        }
        return sign + text
    }
}
