import Events

/// One content id (a lesson's or passage's) across its submissions.
public struct SubmissionSummary: Sendable, Hashable {
    /// One submission, for the `recent` list.
    public struct Recent: Sendable, Hashable {
        /// Its score: percent correct, halves up; nil with no answers.
        public var score: Int?
        /// Correct answers.
        public var correct: Int
        /// The number of answers.
        public var total: Int
        /// Its `at`, as written.
        public var at: Timestamp

        /// Makes a recent submission; `score` follows from `correct` and `total`.
        public init(correct: Int, total: Int, at: Timestamp) {
            self.correct = correct; self.total = total; self.at = at
            self.score = Percent.of(correct, total)
        }
    }

    /// The content id.
    public var content: String
    /// The kind of the latest submission.
    public var kind: SubmissionMade.Kind
    /// The category of the latest submission.
    public var category: String
    /// Submissions of this content.
    public var totalAttempts: Int
    /// The highest non-null score; nil if none.
    public var bestScore: Int?
    /// The latest submission's score (nil if it had no answers).
    public var latestScore: Int?
    /// The last 5 submissions, newest first.
    public var recent: [Recent]

    /// Makes a submission summary.
    public init(content: String, kind: SubmissionMade.Kind, category: String, totalAttempts: Int,
                bestScore: Int?, latestScore: Int?, recent: [Recent]) {
        self.content = content; self.kind = kind; self.category = category; self.totalAttempts = totalAttempts
        self.bestScore = bestScore; self.latestScore = latestScore; self.recent = recent
    }
}
