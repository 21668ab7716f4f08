import Events

/// The fold behind the daily quiz and the history: daily attempts indexed by
/// their start day. Independent of D; ``DailyQuiz`` and ``HistoryEntry`` are
/// computed at the end for the D asked.
package enum DailyAttemptsProjection {
    /// The daily attempts of one day.
    package struct DayRecord: Sendable, Hashable {
        /// Attempt ids in start order (log order).
        package var attempts: [String] = []
        /// Finished attempt ids in finish order (log order).
        package var finished: [String] = []
        /// `at` of the day's first `quiz.finished` in log order.
        package var firstFinishedAt: Timestamp?
    }

    /// Daily attempts by start day (counted ones only: started after the latest quizzes reset).
    package struct State: Sendable, Hashable {
        /// The days with a daily attempt.
        package var days: [Day: DayRecord] = [:]
        /// No day yet.
        package init() {}
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        switch step.effect {
        case .reset(let scope) where scope.covers(.quizzes):
            state.days = [:]
        case .started(let attempt) where step.counts && attempt.isDaily:
            state.days[attempt.day, default: DayRecord()].attempts.append(attempt.id)
        case .finished(let attempt) where step.counts && attempt.isDaily:
            var record = state.days[attempt.day, default: DayRecord()]
            record.finished.append(attempt.id)
            if record.firstFinishedAt == nil { record.firstFinishedAt = attempt.ending?.at }
            state.days[attempt.day] = record
        default:
            break
        }
    }
}
