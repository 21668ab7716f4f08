import Events

/// The old stores' kinds (`--from`).
package enum ImportKind: String, Sendable, Hashable, CaseIterable {
    /// The first seed's UserDefaults (`quizHistory`, `quizProgress.YYYYMMDD`).
    case dailyQuiz = "daily-quiz"
    /// The third seed's `puzzle_progress_attempts` (SQLite or CSV).
    case cryptogram
    /// The second seed's attempts histories.
    case satAttempts = "sat-attempts"
    /// The fourth seed's redux-persist `persist:root`.
    case quizApp = "quiz-app"
}

/// What every import needs beside the store: the learner, the device and the
/// UTC offset the old store does not keep (docs/import.md, "Rules for every store").
package struct ImportSettings: Sendable, Hashable {
    /// The learner (`--user`).
    package var user: String   // not a key: settings of one import
    /// The device (`--device`), written as every event's `device` when given.
    package var device: String?   // not a key: settings of one import
    /// The offset every instant is written in (`--utc-offset`), in minutes.
    package var offsetMinutes: Int
    /// The time of a store that keeps none (`--at`, quiz-app).
    package var at: Timestamp?

    /// The offset when none is given (`--utc-offset`'s default): UTC.
    package static let defaultOffset = "+00:00"

    /// Makes settings; `offset` is `±HH:MM` (nil when it is not).
    package init?(user: String, device: String? = nil, offset: String = defaultOffset, at: Timestamp? = nil) {
        let u = Array(offset.utf8)
        guard u.count == 6, u[0] == UInt8(ascii: "+") || u[0] == UInt8(ascii: "-"), u[3] == UInt8(ascii: ":"),
              let h = Day.digits(u, 1, 2), let m = Day.digits(u, 4, 2), h <= 23, m <= 59 else { return nil }
        self.user = user; self.device = device; self.at = at
        self.offsetMinutes = (h * 60 + m) * (u[0] == UInt8(ascii: "-") ? -1 : 1)
    }

    /// The offset as written in timestamps, `+03:00`.
    package var offsetText: String {
        let m = abs(offsetMinutes)
        return (offsetMinutes < 0 ? "-" : "+") + Day.pad(m / 60, 2) + ":" + Day.pad(m % 60, 2)
    }
}
