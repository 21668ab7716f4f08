import Events

/// An achievement, dated by the day its condition first held.
public struct Achievement: Sendable, Hashable {
    /// The achievements, in the order used when one event earns several.
    public enum ID: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// 7 consecutive active days; dated by the 7th.
        case streak7 = "streak_7"
        /// 30 finished quizzes of any mode; dated by the 30th's day.
        case quizzes30 = "quizzes_30"
        /// 10 finished quizzes with every question right; dated by the 10th's day.
        case perfect10 = "perfect_10"
        /// 7 consecutive days each with a perfect finished daily quiz; dated by the 7th.
        case perfectWeek = "perfect_week"

        /// The id as printed.
        public var description: String { rawValue }
    }

    /// Which achievement.
    public var id: ID
    /// The day it is dated by.
    public var day: Day

    /// Makes an achievement.
    public init(_ id: ID, day: Day) { self.id = id; self.day = day }
}
