import Events

/// All projections of one user composed into one pass: each kept event goes
/// through the ``AttemptsBook`` once, and the resulting ``Step`` through every
/// small projection. Nothing here depends on D; ``state(day:options:)``
/// computes the day-based members at the end from day-indexed data.
package struct LearnerFold: Sendable {
    /// The attempt bookkeeping.
    package private(set) var book = AttemptsBook()
    /// The default D.
    package private(set) var latest = LatestEvent()
    /// Daily attempts by start day (daily quiz, history).
    package private(set) var daily = DailyAttemptsProjection.State()
    /// The streak's days and grace (streak, `streak_7`, `freeze_overflow`).
    package private(set) var streak: StreakFold
    /// Per quiz.
    package private(set) var quizzes = QuizzesProjection.State()
    /// Per puzzle and encoding.
    package private(set) var puzzles = PuzzlesProjection.State()
    /// Per content.
    package private(set) var submissions = SubmissionsProjection.State()
    /// Study plan windows.
    package private(set) var studyPlan = StudyPlanProjection.State()
    /// Hint balance.
    package private(set) var hints = Hints()
    /// Progress totals.
    package private(set) var stats = StatsProjection.State()
    /// Achievements.
    package private(set) var achievements = AchievementsProjection.State()
    /// Anomalies.
    package private(set) var anomalies: [Anomaly] = []
    /// Items to review (FSRS).
    package private(set) var review: ReviewProjection.State
    /// Kept lines folded (events and newer-version lines).
    package private(set) var count = 0

    /// An empty fold; `streakOn` says which days are active (the streak, `streak_7`),
    /// `scheduler` how the items to review are scheduled.
    package init(streakOn: StreakMode, scheduler: FSRSScheduler) {
        streak = StreakFold(mode: streakOn)
        review = ReviewProjection.State(scheduler: scheduler)
    }

    /// Folds one kept event of the user (of a known version), in log order.
    package mutating func reduce(_ envelope: Envelope) {
        count += 1
        let step = book.apply(envelope)
        latest.reduce(step)
        DailyAttemptsProjection.reduce(into: &daily, step)
        let streakChanged = streak.reduce(step)
        QuizzesProjection.reduce(into: &quizzes, step)
        PuzzlesProjection.reduce(into: &puzzles, step)
        SubmissionsProjection.reduce(into: &submissions, step)
        StudyPlanProjection.reduce(into: &studyPlan, step)
        StatsProjection.reduce(into: &stats, step)
        AchievementsProjection.reduce(into: &achievements, step, streak: streak, streakChanged: streakChanged)
        ReviewProjection.reduce(into: &review, step)
        let overdraw = HintsProjection.reduce(into: &hints, step)
        // In the spec's order: the step's, then the overdraw (no array made for an event without any).
        if !step.anomalies.isEmpty { AnomaliesProjection.reduce(into: &anomalies, step.anomalies) }
        if let overdraw { AnomaliesProjection.reduce(into: &anomalies, [overdraw]) }
    }

    /// Folds a kept newer-version line: skipped, reported.
    package mutating func reduce(newer line: NewerVersionLine) {
        count += 1
        AnomaliesProjection.reduce(into: &anomalies, newer: line)
    }

    /// The walk of the streak at `day` (nil: `options.day`, else the default
    /// D), with what `explain` and the dashboard show of its runs.
    package func streakWalk(day: Day?, options: StateOptions) -> StreakWalk? {
        guard let d = day ?? options.day ?? latest.day else { return nil }
        return streak.walk(through: d, today: d)
    }

    /// The state at `day` (nil: `options.day`, else the default D).
    package func state(day: Day?, options: StateOptions) -> LearnerState {
        let d = day ?? options.day ?? latest.day
        return LearnerState(
            user: options.user,
            day: d,
            dailyQuiz: dailyQuiz(at: d, options),
            streak: streak(at: d, options),
            history: history(at: d, options),
            quizzes: quizzes.sorted,
            puzzles: puzzles.sorted,
            submissions: submissions.sorted,
            studyPlan: studyPlan(options),
            hints: hints,
            stats: stats.stats,
            achievements: achievements.earned,
            anomalies: anomalies(options),
            review: ReviewProjection.schedule(review, day: d, budget: options.reviewBudget),
            retryLimit: max(0, options.retryLimit))
    }

    // The day-based and computed members, each on its own (the state above,
    // and `explain`, which reads one member after each event).

    /// The daily quiz of D.
    package func dailyQuiz(at d: Day?, _ options: StateOptions) -> DailyQuiz {
        DailyQuiz.at(d, daily: daily, book: book, retryLimit: max(0, options.retryLimit))
    }

    /// The streak at D.
    package func streak(at d: Day?, _ options: StateOptions) -> Streak {
        d.map(streak.streak(at:)) ?? .none
    }

    /// The completed daily quizzes of the `--days` days ending at D.
    package func history(at d: Day?, _ options: StateOptions) -> [HistoryEntry] {
        HistoryEntry.window(endingAt: d, days: options.days, daily: daily, book: book)
    }

    /// The anomalies: those the events carry, with the streak freezes
    /// granted over the cap placed by seq.
    package func anomalies(_ options: StateOptions) -> [Anomaly] {
        AnomaliesProjection.merging(anomalies, streak.overflows)
    }

    /// The study plan.
    package func studyPlan(_ options: StateOptions) -> StudyPlan {
        StudyPlan.compute(studyPlan, catalog: options.catalog, mastered: submissions.mastered)
    }
}
