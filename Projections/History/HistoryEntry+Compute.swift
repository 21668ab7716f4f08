import Events

extension HistoryEntry {
    /// The completed daily quiz days within `day - days + 1 ... day`, newest first.
    package static func window(endingAt day: Day?, days: Int, daily: DailyAttemptsProjection.State,
                               book: AttemptsBook) -> [HistoryEntry] {
        guard let day else { return [] }
        let first = day.adding(days: -(max(1, days) - 1))
        var entries: [HistoryEntry] = []
        for (date, record) in daily.days where date >= first && date <= day {
            guard let completedAt = record.firstFinishedAt else { continue }
            // The best attempt: the highest score, the earliest finished on a tie.
            var best: Attempt? = nil
            for id in record.finished {
                guard let attempt = book.attempt(id) else { continue }
                if best.map({ attempt.score > $0.score }) ?? true { best = attempt }
            }
            guard let best else { continue }
            entries.append(HistoryEntry(day: date, quiz: best.quiz, bestScore: best.score,
                                        total: best.questions, completedAt: completedAt))
        }
        return entries.sorted { $0.day > $1.day }
    }
}
