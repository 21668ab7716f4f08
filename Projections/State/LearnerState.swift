import Events

/// Everything the app shows for one learner on day D, rebuilt from the log.
///
/// Members follow `progress-ledger state --json`. Only ``dailyQuiz``,
/// ``streak``, ``history`` and the count of ``review`` items due depend on D;
/// the others cover every kept event.
public struct LearnerState: Sendable, Hashable {
    /// The learner.
    public var user: String
    /// Day D; nil when there is no event and no day was given.
    public var day: Day?
    /// The daily quiz of D.
    public var dailyQuiz: DailyQuiz
    /// The streak at D.
    public var streak: Streak
    /// Completed daily quizzes in the window ending at D, newest first.
    public var history: [HistoryEntry]
    /// Per quiz id, sorted by quiz.
    public var quizzes: [QuizSummary]
    /// Per puzzle and encoding, sorted.
    public var puzzles: [PuzzleSummary]
    /// Per content id, sorted.
    public var submissions: [SubmissionSummary]
    /// Strengths, weaknesses and recommendations.
    public var studyPlan: StudyPlan
    /// The hint balance.
    public var hints: Hints
    /// The progress page.
    public var stats: Stats
    /// Achievements in the order earned.
    public var achievements: [Achievement]
    /// Anomalies in log order.
    public var anomalies: [Anomaly]
    /// The items to review and when (FSRS-6), with how many are due on D.
    public var review: ReviewSchedule

    /// Makes a state; every member but `user` defaults to empty.
    public init(user: String, day: Day? = nil, dailyQuiz: DailyQuiz? = nil, streak: Streak = .none,
                history: [HistoryEntry] = [], quizzes: [QuizSummary] = [], puzzles: [PuzzleSummary] = [],
                submissions: [SubmissionSummary] = [], studyPlan: StudyPlan = StudyPlan(), hints: Hints = Hints(),
                stats: Stats = Stats(), achievements: [Achievement] = [], anomalies: [Anomaly] = [],
                review: ReviewSchedule? = nil, retryLimit: Int = 1) {
        self.user = user; self.day = day
        self.dailyQuiz = dailyQuiz ?? DailyQuiz(day: day, retryLimit: retryLimit)
        self.streak = streak; self.history = history; self.quizzes = quizzes; self.puzzles = puzzles
        self.submissions = submissions; self.studyPlan = studyPlan; self.hints = hints; self.stats = stats
        self.achievements = achievements; self.anomalies = anomalies
        self.review = review ?? ReviewSchedule(day: day)
    }

    /// Folds a whole log (any users, in log order) into the state `options` asks for.
    public init<Records: Sequence<Record>>(folding records: Records, options: StateOptions) {
        var projector = LearnerProjector(options: options)
        projector.apply(contentsOf: records)
        self = projector.state()
    }
}
