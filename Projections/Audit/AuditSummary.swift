import Events

/// The one-line summaries of the audit timeline, for a person:
/// `daily quiz "Quran Basics" started · attempt a-1 · 5 questions`,
/// `q2 → choice 1 ✓ inference`.
enum AuditSummary {
    /// What a step did. `showAttempt` names the attempt of an answer or hint
    /// (when it is not the previous line's); `balance` is the hint balance before and after.
    static func describe(_ step: Step, showAttempt: Bool, balance: (before: Int, after: Int)) -> String {
        let event = step.envelope.event
        switch event {
        case .quizStarted(let s):
            let kind = s.isDaily ? "daily quiz" : s.isDiagnostic ? "diagnostic quiz" : "quiz"
            var text = "\(kind) \(quoted(s.title ?? s.quiz)) started · attempt \(s.attempt) · \(plural(s.questions, "question"))"
            let tags = [s.category, s.difficulty].compactMap { $0 }
            if !tags.isEmpty { text += " · " + tags.joined(separator: ", ") }
            if s.title != nil, !s.isDaily { text += " · quiz \(s.quiz)" }
            return text
        case .answerSelected(let a):
            var text = (showAttempt ? "\(a.attempt) " : "") + "\(a.question) → choice \(a.choice) \(a.correct ? "✓" : "✗")"
            if let skill = a.skill { text += " \(skill)" }
            if case .answered(_, let answer) = step.effect, answer.afterHint { text += " · after a hint" }
            return text
        case .hintUsed(let h):
            return (showAttempt ? "\(h.attempt) " : "") + "\(h.question) hint \(h.hint.rawValue) · balance "
                + (balance.before == balance.after ? "\(balance.after)" : "\(balance.before) → \(balance.after)")
        case .quizFinished(let e), .quizAbandoned(let e):
            let verb = event.type == .quizFinished ? "finished" : "abandoned"
            guard let attempt = step.attempt, step.attempt?.ending?.seq == step.seq else {
                return "quiz \(verb) · attempt \(e.attempt)"
            }
            var text = "quiz \(verb) · attempt \(e.attempt)"
            if !attempt.isFinished { text += " · \(attempt.answered) of \(attempt.questions) answered" }
            text += " · score \(attempt.score)/\(attempt.questions)"
            if let percent = attempt.percent { text += " (\(percent)%)" }
            if let seconds = attempt.finishSeconds { text += " · in \(seconds.readable)" }
            return text
        case .puzzleCompleted(let p):
            return "puzzle \(p.puzzle) (\(p.encoding)) solved" + (p.seconds.map { " in \($0) s" } ?? "")
        case .puzzleFailed(let p):
            return "puzzle \(p.puzzle) (\(p.encoding)) failed" + (p.seconds.map { " after \($0) s" } ?? "")
        case .submissionMade(let s):
            var text = (s.isDiagnostic ? "diagnostic " : "") + "\(s.kind.rawValue) \(s.content) submitted · \(s.category)"
            if let score = s.score {
                text += " · \(s.correctCount)/\(s.answers.count) right (\(score)%)"
            } else {
                text += " · no questions"
            }
            if let seconds = s.seconds { text += " · \(ExactSeconds(Int64(seconds), scale: 1_000_000_000).readable)" }
            return text
        case .hintsGranted(let g):
            return "\(plural(g.amount, "hint")) granted (\(g.reason.rawValue)) · balance \(balance.before) → \(balance.after)"
        case .progressReset(let r):
            let what: String
            switch r.scope {
            case .all: what = "all progress (not hints) starts afresh after this line"
            case .quizzes: what = "quiz progress starts afresh after this line"
            case .puzzles: what = "puzzle progress starts afresh after this line"
            case .submissions: what = "submission progress starts afresh after this line"
            }
            return "progress reset: \(r.scope.rawValue) · \(what)"
        case .streakFreezeGranted(let g):
            return "\(plural(g.amount, "streak freeze")) granted (\(g.reason.rawValue))"
        case .streakPaused(let p):
            return "streak paused \(p.from) to \(p.to) · \(plural(p.to.ordinal - p.from.ordinal + 1, "day"))"
        }
    }

    /// `5 questions`, `1 hint`.
    static func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
