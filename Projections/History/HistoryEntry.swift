import Events

/// One completed daily quiz day in the history window.
public struct HistoryEntry: Sendable, Hashable {
    /// The day (the attempts' start day).
    public var day: Day
    /// The quiz of the day's best attempt (the earliest finished on a tie).
    public var quiz: String
    /// The highest score among the day's finished daily attempts.
    public var bestScore: Int
    /// The best attempt's `questions`.
    public var total: Int
    /// The best attempt's percent; nil only if `total` were 0.
    public var percent: Int?
    /// `at`, as written, of the day's first `quiz.finished` (log order).
    public var completedAt: Timestamp

    /// Makes a history entry; `percent` follows from `bestScore` and `total`.
    public init(day: Day, quiz: String, bestScore: Int, total: Int, completedAt: Timestamp) {
        self.day = day; self.quiz = quiz; self.bestScore = bestScore; self.total = total
        self.percent = Percent.of(bestScore, total); self.completedAt = completedAt
    }
}
