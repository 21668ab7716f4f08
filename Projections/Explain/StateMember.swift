import Events

/// A top-level member of `state --json`, read alone from the fold at D: what
/// `explain` reads after each event, instead of the whole state.
enum StateMember: String, CaseIterable {
    case user, day, dailyQuiz = "daily_quiz", streak, history, quizzes, puzzles, submissions
    case studyPlan = "study_plan", hints, stats, achievements, anomalies, review

    /// A value that changes whenever the member can have changed, far cheaper
    /// to read than the member; nil when the member itself is cheap to read
    /// (its size is that of the content, not of the learner's history).
    func changeMark(_ fold: LearnerFold, day: Day?, _ options: StateOptions) -> AnyHashable? {
        switch self {
        case .user, .day: 0   // D is fixed for the whole explanation
        case .streak: day.map { fold.streak.changeMark(through: $0) } ?? []
        case .stats: fold.stats.changeMark
        case .anomalies:
            // The events' anomalies are never reset (their count only grows); the
            // freezes over the cap come from the walk up to the last grant's day.
            [fold.anomalies.count] + (fold.streak.grace.lastGrantDay.map { fold.streak.changeMark(through: $0) } ?? [])
        case .dailyQuiz, .history, .quizzes, .puzzles, .submissions, .studyPlan, .hints, .achievements: nil
        case .review: fold.review.changes
        }
    }

    /// The member at `day`, as `state --json` writes it (the state's own
    /// computations: ``LearnerFold/state(day:options:)`` calls the same ones).
    func json(_ fold: LearnerFold, day: Day?, _ options: StateOptions) -> [UInt8] {
        var w = JSONWriter()
        switch self {
        case .user: w.string(options.user)
        case .day: w.day(day)
        case .dailyQuiz: fold.dailyQuiz(at: day, options).write(to: &w)
        case .streak: fold.streak(at: day, options).write(to: &w)
        case .history: w.array(fold.history(at: day, options)) { w, e in e.write(to: &w) }
        case .quizzes: w.array(fold.quizzes.sorted) { w, q in q.write(to: &w) }
        case .puzzles: w.array(fold.puzzles.sorted) { w, p in p.write(to: &w) }
        case .submissions: w.array(fold.submissions.sorted) { w, s in s.write(to: &w) }
        case .studyPlan: fold.studyPlan(options).write(to: &w)
        case .hints: fold.hints.write(to: &w)
        case .stats: fold.stats.stats.write(to: &w)
        case .achievements: w.array(fold.achievements.earned) { w, a in a.write(to: &w) }
        case .anomalies: w.array(fold.anomalies(options)) { w, a in a.write(to: &w) }
        case .review: ReviewProjection.schedule(fold.review, day: day, budget: options.reviewBudget).write(to: &w)
        }
        return w.bytes
    }
}
