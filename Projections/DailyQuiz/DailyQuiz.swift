import Events

/// The daily quiz of day D: what the app's daily-quiz button shows.
///
/// Attempts considered: `quiz.started` with `daily: true` whose day is D.
public struct DailyQuiz: Sendable, Hashable {
    /// Where the latest daily attempt of D stands.
    public enum Status: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// No daily attempt on D.
        case notStarted = "not_started"
        /// The latest attempt is running.
        case inProgress = "in_progress"
        /// The latest attempt finished.
        case completed
        /// The latest attempt was abandoned.
        case abandoned

        /// The status as printed.
        public var description: String { rawValue }
    }

    /// D; nil when there is no day (no event and no `--day`).
    public var day: Day?
    /// Of the latest attempt of D.
    public var status: Status
    /// The latest attempt's quiz; nil if none.
    public var quiz: String?
    /// The latest attempt's id; nil if none.
    public var attempt: String?
    /// First answers in the latest attempt; 0 if none.
    public var answered: Int
    /// Correct first answers in the latest attempt; 0 if none.
    public var score: Int
    /// The latest attempt's `questions`; nil if none.
    public var total: Int?
    /// Whether any attempt of D finished.
    public var completed: Bool
    /// The highest score among finished attempts of D; nil if none.
    public var bestScore: Int?
    /// `at`, as written, of the first `quiz.finished` (log order) of an attempt of D; may fall on D+1.
    public var completedAt: Timestamp?
    /// Daily attempts of D, whatever their quiz.
    public var attempts: Int
    /// `max(0, attempts - 1)`.
    public var retriesUsed: Int
    /// `max(0, retryLimit - retriesUsed)`.
    public var retriesLeft: Int

    /// Where the learner resumes, 0-based: equals ``answered``.
    public var nextQuestion: Int { answered }

    /// Makes a daily quiz; `retriesUsed` and `retriesLeft` follow from `attempts` and `retryLimit`.
    public init(day: Day?, status: Status = .notStarted, quiz: String? = nil, attempt: String? = nil,
                answered: Int = 0, score: Int = 0, total: Int? = nil, completed: Bool = false,
                bestScore: Int? = nil, completedAt: Timestamp? = nil, attempts: Int = 0, retryLimit: Int = 1) {
        self.day = day; self.status = status; self.quiz = quiz; self.attempt = attempt
        self.answered = answered; self.score = score; self.total = total; self.completed = completed
        self.bestScore = bestScore; self.completedAt = completedAt; self.attempts = attempts
        self.retriesUsed = max(0, attempts - 1)
        self.retriesLeft = max(0, retryLimit - retriesUsed)
    }
}
