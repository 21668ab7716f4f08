import Events

extension LearnerState {
    /// The state for a person to read: today's quiz and its button, the streak,
    /// history, strengths and weaknesses, hints, stats, reviews due, achievements and the
    /// number of anomalies. Pure: the same state gives the same text.
    public var text: String {
        var lines: [String] = []
        lines.append("\(user) · \(day?.description ?? "no day (no events)")")
        lines.append("Daily quiz: " + dailyQuiz.summary)
        lines.append("Streak: " + streak.summary)
        if !history.isEmpty {
            let days = history.prefix(7).map { "\($0.day) \($0.bestScore)/\($0.total)" }
            lines.append("History: " + days.joined(separator: " · ") + (history.count > 7 ? " · … (\(history.count) days)" : ""))
        }
        lines.append("Strengths: " + Self.skills(studyPlan.strengths))
        lines.append("Weaknesses: " + Self.skills(studyPlan.weaknesses))
        if !studyPlan.recommended.isEmpty {
            lines.append("Recommended: " + studyPlan.recommended.joined(separator: ", "))
        }
        lines.append("Hints: \(hints.balance) left (\(hints.granted) granted, \(hints.used) used)")
        lines.append("Stats: " + stats.summary)
        lines.append("Review: " + review.summary)
        if !achievements.isEmpty {
            lines.append("Achievements: " + achievements.map { "\($0.id) (\($0.day))" }.joined(separator: ", "))
        }
        lines.append(anomalies.isEmpty
                     ? "Anomalies: none"
                     : "Anomalies: \(anomalies.count) (see --json for each one's seq and detail)")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func skills(_ skills: [StudyPlan.SkillResult]) -> String {
        guard !skills.isEmpty else { return "none yet" }
        return skills.prefix(5).map { s in
            "\(s.skill)\(s.category.map { " (\($0))" } ?? "") \(s.percent)% of \(s.total)"
        }.joined(separator: ", ")
    }
}

extension DailyQuiz {
    /// The daily-quiz button as the app would label it, e.g. `Continue (4/5)`.
    public var button: String {
        let total = self.total ?? 0
        switch status {
        case .notStarted:
            return "Start"
        case .inProgress:
            return "Continue (\(min(answered + 1, max(total, 1)))/\(total))"
        case .completed:
            return "Completed \(score)/\(total) · " + retriesText
        case .abandoned:
            return "Abandoned at \(answered)/\(total) · " + retriesText
        }
    }

    private var retriesText: String {
        switch retriesLeft {
        case 0: "no retries left"
        case 1: "1 retry left"
        default: "\(retriesLeft) retries left"
        }
    }

    var summary: String {
        var text = button
        if let quiz { text += " — \(quiz)" }
        if status == .inProgress || status == .abandoned, let bestScore, let total {
            text += " (best \(bestScore)/\(total))"
        }
        return text
    }
}

/// `1 quiz`, `2 quizzes`.
func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

extension Streak {
    /// `5 days · done today · longest 7`, then, once the learner has freezes
    /// or pauses, `· 1 freeze held (3 granted, 2 used)` and the current run's
    /// `frozen 10-08, 10-12 · 3 paused days`.
    var summary: String {
        var text = current == 0 ? "0 days · longest \(longest)"
            : plural(current, "day", "days") + (activeToday ? " · done today" : " · not done yet today") + " · longest \(longest)"
        if freezes.granted > 0 {
            text += " · \(plural(freezes.held, "freeze", "freezes")) held (\(freezes.granted) granted, \(freezes.used) used)"
        }
        if current > 0, let run = runs.last {
            if !run.frozen.isEmpty { text += " · frozen " + run.frozen.map(\.description).joined(separator: ", ") }
            if run.paused > 0 { text += " · " + plural(run.paused, "paused day", "paused days") }
        }
        return text
    }
}

extension ReviewSchedule {
    /// `3 of 48 items due · today 12 of 20 done, 3 to review · next 2 on 2025-10-22`.
    var summary: String {
        guard !items.isEmpty else { return "nothing to review yet" }
        var text = "\(due) of \(plural(items.count, "item", "items")) due"
        if due > 0 || plan.done > 0 { text += " · today " + plan.summary }
        if let day, let next = items.lazy.map(\.dueDay).filter({ $0 > day }).min() {
            text += " · next \(items.reduce(0) { $0 + ($1.dueDay == next ? 1 : 0) }) on \(next)"
        }
        return text
    }
}

extension Stats {
    var summary: String {
        var parts = [plural(quizzesCompleted, "quiz", "quizzes") + " completed"]
        if let accuracy { parts.append("\(accuracy)% right of " + plural(questionsAnswered, "answer", "answers")) }
        parts.append(plural(puzzlesCompleted, "puzzle", "puzzles"))
        parts.append(plural(submissions, "submission", "submissions"))
        if timeSpent.nanoseconds > 0 { parts.append("\(timeSpent.readable) spent") }
        if let firstActive, let lastActive {
            parts.append(plural(activeDays, "learning day", "learning days") + " (\(firstActive) to \(lastActive))")
        }
        return parts.joined(separator: " · ")
    }
}
