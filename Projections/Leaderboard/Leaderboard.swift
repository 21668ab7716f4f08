import Events

/// A ranking of learners over one ISO week or calendar month, built by
/// ``LeaderboardBuilder``; printed as JSON (and as text by `Rendering`).
public struct Leaderboard: Sendable, Hashable {
    /// The length of the period.
    public enum Period: String, Sendable, Hashable, CaseIterable {
        /// An ISO week, Monday to Sunday.
        case week
        /// A calendar month.
        case month

        /// The first and last day of the period that contains `day`.
        public func range(containing day: Day) -> (first: Day, last: Day) {
            switch self {
            case .week:
                let monday = day.adding(days: -Self.floorMod(day.ordinal + 3, 7))   // 1970-01-01 was a Thursday
                return (monday, monday.adding(days: 6))
            case .month:
                let (y, m, _) = day.components
                let first = Day(ordinal: Day.ordinal(year: y, month: m, day: 1))
                return (first, first.adding(days: Day.daysIn(month: m, year: y) - 1))
            }
        }

        private static func floorMod(_ a: Int, _ n: Int) -> Int { ((a % n) + n) % n }
    }

    /// What learners are ranked by.
    public enum Measure: String, Sendable, Hashable, CaseIterable {
        /// Finished quizzes (every mode) whose attempt started in the period.
        case finished
        /// The mean score percent of those (at least ``minimumForPercent`` of them).
        case percent
        /// The current daily streak at the period's last day.
        case streak
    }

    /// One listed learner.
    public struct Row: Sendable, Hashable {
        /// Standard competition rank: 1 + the number of listed learners with a higher value.
        public var rank: Int
        /// The learner.
        public var user: String
        /// The value ranked by.
        public var value: Int
        /// Finished quizzes in the period (the basis of `percent`).
        public var finished: Int
    }

    /// Week or month.
    public var period: Period
    /// The period's first day.
    public var first: Day
    /// Its last day.
    public var last: Day
    /// What the rows are ranked by.
    public var measure: Measure
    /// Rows by rank, then user id (code point order).
    public var rows: [Row]

    /// `percent` lists learners with at least this many finished quizzes in the period.
    public static let minimumForPercent = 3
}

extension Leaderboard {
    /// The leaderboard as one compact JSON object, without a trailing newline:
    /// `{"period","from","to","by","rows":[{"rank","user","value","finished"}]}`.
    public var json: [UInt8] {
        var w = JSONWriter()
        w.object { w, o in
            o.string(&w, "period", period.rawValue); o.day(&w, "from", first); o.day(&w, "to", last); o.string(&w, "by", measure.rawValue)
            o.objects(&w, "rows", rows) { w, r, row in
                r.integer(&w, "rank", row.rank); r.string(&w, "user", row.user); r.integer(&w, "value", row.value); r.integer(&w, "finished", row.finished)
            }
        }
        return w.bytes
    }
}

extension Leaderboard {
    /// The user ids of an exclusion file: one a line (LF or CRLF), exact, empty lines ignored.
    public static func excludedUsers(_ bytes: [UInt8]) -> [String] {
        var users: [String] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
            let id = line.last == 0x0D ? line.dropLast() : line[...]
            if !id.isEmpty { users.append(String(decoding: id, as: UTF8.self)) }
        }
        return users
    }
}
