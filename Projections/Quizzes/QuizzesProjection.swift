import Events

/// Per quiz id, every mode: attempts, ends, best and latest results, fastest finish.
package enum QuizzesProjection {
    /// The summaries by quiz id (counted attempts only).
    package typealias State = SummaryTable<ExactString, QuizSummary>

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        if case .reset(let scope) = step.effect, scope.covers(.quizzes) { state.byKey = [:]; return }
        guard let attempt = step.countedAttempt else { return }
        // Only a start or an end changes a summary: an answer (most steps) looks nothing up.
        switch step.effect {
        case .started, .finished, .abandoned: break
        default: return
        }
        // One lookup, the summary changed in place (a new quiz's made there).
        update(&state.byKey[ExactString(attempt.quiz), default: QuizSummary(quiz: attempt.quiz)], step.effect, attempt)
    }

    /// `summary` after a counted start or end of `attempt`.
    private static func update(_ summary: inout QuizSummary, _ effect: Step.Effect, _ attempt: Attempt) {
        switch effect {
        case .started:
            summary.attempts += 1
        case .finished:
            summary.finished += 1
            summary.bestScore = max(summary.bestScore ?? attempt.score, attempt.score)
            let percent = attempt.percent
            if let percent {
                summary.bestPercent = max(summary.bestPercent ?? percent, percent)
            }
            summary.latestPercent = percent
            if let seconds = attempt.finishSeconds {
                summary.fastestSeconds = min(summary.fastestSeconds ?? seconds, seconds)
            }
        case .abandoned:
            summary.abandoned += 1
            summary.latestPercent = attempt.percent
        default:
            break
        }
    }
}
