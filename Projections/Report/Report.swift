import Events

/// The analytics report across all learners: one row per calendar day from
/// `from` to `to`, the totals over the range, accuracy per skill, and the
/// distribution of daily streaks at `to`.
///
/// Built by `ReportBuilder`; printed as JSON, and by the `Rendering` module as
/// CSV, a text table or an HTML page.
public struct Report: Sendable, Hashable {
    /// The counts of one day, or of the whole range.
    public struct Counts: Sendable, Hashable {
        /// Distinct users with a v1 event other than `hints.granted` (over the range in totals).
        public var activeUsers = 0
        /// Attempts started.
        public var quizzesStarted = 0
        /// Attempts finished, on their start day.
        public var quizzesFinished = 0
        /// Finished over started, percent; nil with no start.
        public var completionRate: Int?
        /// The mean of `100 * score / questions` over finished attempts, halves up; nil with none.
        public var meanScorePercent: Int?
        /// Counted first answers of attempts and submission answers.
        public var answers = 0
        /// Percent of those answers that were right; nil with none.
        public var accuracy: Int?
        /// `hint.used` events.
        public var hintsUsed = 0
        /// `puzzle.completed` events.
        public var puzzlesCompleted = 0
        /// `puzzle.failed` events.
        public var puzzlesFailed = 0
        /// `submission.made` events.
        public var submissions = 0

        /// All zero (a day without events).
        public init() {}
    }

    /// One calendar day of the range.
    public struct DayRow: Sendable, Hashable {
        /// The day.
        public var day: Day
        /// Its counts.
        public var counts: Counts
    }

    /// Accuracy of one skill over the range (every counted answer that names it).
    public struct SkillRow: Sendable, Hashable {
        /// The skill.
        public var skill: String
        /// Right answers.
        public var correct: Int
        /// Answers.
        public var answers: Int
        /// Percent right; nil never happens for a listed skill, kept for symmetry.
        public var accuracy: Int? { Percent.of(correct, answers) }
    }

    /// How many of the range's active users have a given current daily streak at `to`.
    public struct StreakBucket: Sendable, Hashable {
        /// The current streak, in days (0 for none).
        public var current: Int
        /// How many users have it.
        public var users: Int
    }

    /// The first day of the range; nil for an empty report (no event, no `--from`/`--to`).
    public var from: Day?
    /// The last day of the range.
    public var to: Day?
    /// One row per calendar day from `from` to `to`, days without events included.
    public var days: [DayRow]
    /// The counts over the whole range.
    public var totals: Counts
    /// Per skill, sorted by skill (code point order).
    public var skills: [SkillRow]
    /// The streak distribution at `to`, sorted by `current`; it adds up to `totals.activeUsers`.
    public var streaks: [StreakBucket]

    /// The spec's column names of a day row, in order (the CSV header).
    public static let dayColumns = [
        "day", "active_users", "quizzes_started", "quizzes_finished", "completion_rate",
        "mean_score_percent", "answers", "accuracy", "hints_used", "puzzles_completed",
        "puzzles_failed", "submissions",
    ]

    /// The day columns that are percentages (null when their whole is 0).
    public static let percentColumns: Set<String> = ["completion_rate", "mean_score_percent", "accuracy"]   // not a format string: column names
}

extension Report.Counts {
    /// The members of a day row after `day`, in the spec's order (nil for JSON null).
    public var columns: [Int?] {
        [activeUsers, quizzesStarted, quizzesFinished, completionRate, meanScorePercent, answers, accuracy,
         hintsUsed, puzzlesCompleted, puzzlesFailed, submissions]
    }
}
