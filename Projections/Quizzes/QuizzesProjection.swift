import Events

/// Per quiz id, every mode: attempts, ends, best and latest results, fastest finish.
package enum QuizzesProjection {
    /// The summaries by quiz id (counted attempts only).
    package typealias State = SummaryTable<ExactString, QuizSummary>

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        if case .reset(let scope) = step.effect, scope.covers(.quizzes) { state.byKey = [:]; return }
        guard let attempt = step.countedAttempt else { return }
        let key = ExactString(attempt.quiz)
        var summary = state.byKey[key] ?? QuizSummary(quiz: attempt.quiz)
        switch step.effect {
        case .started:
            summary.attempts += 1
        case .finished:
            summary.finished += 1
            summary.bestScore = max(summary.bestScore ?? attempt.score, attempt.score)
            if let percent = attempt.percent {
                summary.bestPercent = max(summary.bestPercent ?? percent, percent)
            }
            summary.latestPercent = attempt.percent
            if let seconds = attempt.finishSeconds {
                summary.fastestSeconds = min(summary.fastestSeconds ?? seconds, seconds)
            }
        case .abandoned:
            summary.abandoned += 1
            summary.latestPercent = attempt.percent
        default:
            return
        }
        state.byKey[key] = summary
    }
}
