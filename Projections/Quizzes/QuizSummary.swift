import Events

/// One quiz id across all its attempts, every mode.
public struct QuizSummary: Sendable, Hashable {
    /// The quiz id.
    public var quiz: String
    /// Attempts started.
    public var attempts: Int
    /// Attempts finished.
    public var finished: Int
    /// Attempts abandoned.
    public var abandoned: Int
    /// Highest score among finished attempts; nil if none.
    public var bestScore: Int?
    /// Highest percent among finished attempts; nil if none.
    public var bestPercent: Int?
    /// The percent of the attempt whose end (finish or abandon) is latest in log order; nil if none ended.
    public var latestPercent: Int?
    /// The least `finished.at - started.at` among finished attempts, exact; nil if none.
    public var fastestSeconds: ExactSeconds?

    /// `max(0, attempts - 1)`.
    public var retries: Int { max(0, attempts - 1) }

    /// Makes a quiz summary.
    public init(quiz: String, attempts: Int = 0, finished: Int = 0, abandoned: Int = 0, bestScore: Int? = nil,
                bestPercent: Int? = nil, latestPercent: Int? = nil, fastestSeconds: ExactSeconds? = nil) {
        self.quiz = quiz; self.attempts = attempts; self.finished = finished; self.abandoned = abandoned
        self.bestScore = bestScore; self.bestPercent = bestPercent; self.latestPercent = latestPercent
        self.fastestSeconds = fastestSeconds
    }
}
