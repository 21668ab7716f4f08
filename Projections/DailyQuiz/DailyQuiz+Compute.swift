import Events

extension DailyQuiz {
    /// The daily quiz of `day` from the day-indexed daily attempts and the book.
    package static func at(_ day: Day?, daily: DailyAttemptsProjection.State, book: AttemptsBook,
                           retryLimit: Int) -> DailyQuiz {
        guard let day, let record = daily.days[day],
              let latestID = record.attempts.last, let latest = book.attempt(latestID)
        else { return DailyQuiz(day: day, retryLimit: retryLimit) }
        let status: Status = switch latest.status {
        case .inProgress: .inProgress
        case .finished: .completed
        case .abandoned: .abandoned
        }
        let finishedScores = record.finished.compactMap { book.attempt($0)?.score }
        return DailyQuiz(day: day, status: status, quiz: latest.quiz, attempt: latest.id,
                         answered: latest.answered, score: latest.score, total: latest.questions,
                         completed: !record.finished.isEmpty, bestScore: finishedScores.max(),
                         completedAt: record.firstFinishedAt, attempts: record.attempts.count,
                         retryLimit: retryLimit)
    }
}
