import Events

/// The learner's progress page: totals over all kept events (not limited to D).
public struct Stats: Sendable, Hashable {
    /// Finished quizzes, every mode.
    public var quizzesCompleted: Int
    /// First answers of quiz attempts in any state, plus every submission answer.
    public var questionsAnswered: Int
    /// The correct ones among them.
    public var correct: Int
    /// Percent correct of `questionsAnswered`; nil when 0.
    public var accuracy: Int?
    /// Completed puzzles.
    public var puzzlesCompleted: Int
    /// Submissions.
    public var submissions: Int
    /// The first learning day; nil if none.
    public var firstActive: Day?
    /// The last learning day; nil if none.
    public var lastActive: Day?
    /// How many learning days (an answer, a finished or abandoned quiz, a puzzle attempt or a submission).
    public var activeDays: Int
    /// Time spent: the `ms` of counted quiz answers, the `seconds` of puzzle
    /// attempts (failed ones too) and of submissions, exact to the nanosecond.
    public var timeSpent: ExactSeconds

    /// Makes stats; `accuracy` follows from `correct` and `questionsAnswered`.
    public init(quizzesCompleted: Int = 0, questionsAnswered: Int = 0, correct: Int = 0, puzzlesCompleted: Int = 0,
                submissions: Int = 0, firstActive: Day? = nil, lastActive: Day? = nil, activeDays: Int = 0,
                timeSpent: ExactSeconds = ExactSeconds(nanoseconds: 0)) {
        self.quizzesCompleted = quizzesCompleted; self.questionsAnswered = questionsAnswered
        self.correct = correct; self.accuracy = Percent.of(correct, questionsAnswered)
        self.puzzlesCompleted = puzzlesCompleted; self.submissions = submissions
        self.firstActive = firstActive; self.lastActive = lastActive; self.activeDays = activeDays
        self.timeSpent = timeSpent
    }
}
