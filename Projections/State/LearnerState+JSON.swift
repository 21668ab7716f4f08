import Events

extension LearnerState {
    /// The state as `progress-ledger state --json` prints it: one compact JSON
    /// object, members in the spec's order, no trailing newline. Deterministic:
    /// the same state gives the same bytes.
    public var jsonBytes: [UInt8] {
        var w = JSONWriter()
        write(to: &w)
        return w.bytes
    }

    /// ``jsonBytes`` as a string.
    public var json: String { String(decoding: jsonBytes, as: UTF8.self) }

    package func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "user"); w.string(user)
        o.key(&w, "day"); w.day(day)
        o.key(&w, "daily_quiz"); dailyQuiz.write(to: &w)
        o.key(&w, "streak"); streak.write(to: &w)
        o.key(&w, "history"); w.array(history) { w, e in e.write(to: &w) }
        o.key(&w, "quizzes"); w.array(quizzes) { w, q in q.write(to: &w) }
        o.key(&w, "puzzles"); w.array(puzzles) { w, p in p.write(to: &w) }
        o.key(&w, "submissions"); w.array(submissions) { w, s in s.write(to: &w) }
        o.key(&w, "study_plan"); studyPlan.write(to: &w)
        o.key(&w, "hints"); hints.write(to: &w)
        o.key(&w, "stats"); stats.write(to: &w)
        o.key(&w, "achievements"); w.array(achievements) { w, a in a.write(to: &w) }
        o.key(&w, "anomalies"); w.array(anomalies) { w, a in a.write(to: &w) }
        o.end(&w)
    }
}

extension DailyQuiz {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "day"); w.day(day)
        o.key(&w, "status"); w.string(status.rawValue)
        o.key(&w, "quiz"); w.string(quiz)
        o.key(&w, "attempt"); w.string(attempt)
        o.key(&w, "answered"); w.integer(answered)
        o.key(&w, "next_question"); w.integer(nextQuestion)
        o.key(&w, "score"); w.integer(score)
        o.key(&w, "total"); w.integer(total)
        o.key(&w, "completed"); w.bool(completed)
        o.key(&w, "best_score"); w.integer(bestScore)
        o.key(&w, "completed_at"); w.timestamp(completedAt)
        o.key(&w, "attempts"); w.integer(attempts)
        o.key(&w, "retries_used"); w.integer(retriesUsed)
        o.key(&w, "retries_left"); w.integer(retriesLeft)
        o.end(&w)
    }
}

extension Streak {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "current"); w.integer(current)
        o.key(&w, "active_today"); w.bool(activeToday)
        o.key(&w, "longest"); w.integer(longest)
        o.key(&w, "runs")
        w.array(runs) { w, run in
            var r = ObjectWriter(&w)
            r.key(&w, "start"); w.day(run.start)
            r.key(&w, "end"); w.day(run.end)
            r.key(&w, "days"); w.integer(run.days)
            r.end(&w)
        }
        o.end(&w)
    }
}

extension HistoryEntry {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "day"); w.day(day)
        o.key(&w, "quiz"); w.string(quiz)
        o.key(&w, "best_score"); w.integer(bestScore)
        o.key(&w, "total"); w.integer(total)
        o.key(&w, "percent"); w.integer(percent)
        o.key(&w, "completed_at"); w.timestamp(completedAt)
        o.end(&w)
    }
}

extension QuizSummary {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "quiz"); w.string(quiz)
        o.key(&w, "attempts"); w.integer(attempts)
        o.key(&w, "finished"); w.integer(finished)
        o.key(&w, "abandoned"); w.integer(abandoned)
        o.key(&w, "retries"); w.integer(retries)
        o.key(&w, "best_score"); w.integer(bestScore)
        o.key(&w, "best_percent"); w.integer(bestPercent)
        o.key(&w, "latest_percent"); w.integer(latestPercent)
        o.key(&w, "fastest_seconds"); w.number(fastestSeconds?.description)
        o.end(&w)
    }
}

extension PuzzleSummary {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "puzzle"); w.string(puzzle)
        o.key(&w, "encoding"); w.string(encoding)
        o.key(&w, "attempts"); w.integer(attempts)
        o.key(&w, "completed"); w.integer(completed)
        o.key(&w, "failed"); w.integer(failed)
        o.key(&w, "best_seconds"); w.number(bestSeconds?.literal)
        o.key(&w, "latest")
        var l = ObjectWriter(&w)
        l.key(&w, "outcome"); w.string(latest.outcome.rawValue)
        l.key(&w, "at"); w.timestamp(latest.at)
        l.key(&w, "seconds"); w.number(latest.seconds?.literal)
        l.end(&w)
        o.end(&w)
    }
}

extension SubmissionSummary {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "content"); w.string(content)
        o.key(&w, "kind"); w.string(kind.rawValue)
        o.key(&w, "category"); w.string(category)
        o.key(&w, "total_attempts"); w.integer(totalAttempts)
        o.key(&w, "best_score"); w.integer(bestScore)
        o.key(&w, "latest_score"); w.integer(latestScore)
        o.key(&w, "recent")
        w.array(recent) { w, r in
            var e = ObjectWriter(&w)
            e.key(&w, "score"); w.integer(r.score)
            e.key(&w, "correct"); w.integer(r.correct)
            e.key(&w, "total"); w.integer(r.total)
            e.key(&w, "at"); w.timestamp(r.at)
            e.end(&w)
        }
        o.end(&w)
    }
}

extension StudyPlan {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "categories")
        w.array(categories) { w, c in
            var e = ObjectWriter(&w)
            e.key(&w, "category"); w.string(c.category)
            e.key(&w, "diagnostic_completed"); w.bool(c.diagnosticCompleted)
            e.key(&w, "skills"); w.array(c.skills) { w, s in s.write(to: &w, level: true, category: false) }
            e.key(&w, "strengths"); w.array(c.strengths) { w, s in s.write(to: &w, level: false, category: false) }
            e.key(&w, "weaknesses"); w.array(c.weaknesses) { w, s in s.write(to: &w, level: false, category: false) }
            e.end(&w)
        }
        o.key(&w, "strengths"); w.array(strengths) { w, s in s.write(to: &w, level: false, category: true) }
        o.key(&w, "weaknesses"); w.array(weaknesses) { w, s in s.write(to: &w, level: false, category: true) }
        o.key(&w, "recommended"); w.array(recommended) { w, id in w.string(id) }
        o.end(&w)
    }
}

extension StudyPlan.SkillResult {
    func write(to w: inout JSONWriter, level: Bool, category: Bool) {
        var o = ObjectWriter(&w)
        o.key(&w, "skill"); w.string(skill)
        o.key(&w, "correct"); w.integer(correct)
        o.key(&w, "total"); w.integer(total)
        o.key(&w, "percent"); w.integer(percent)
        if level { o.key(&w, "level"); w.string(self.level.rawValue) }
        if category { o.key(&w, "category"); w.string(self.category) }
        o.end(&w)
    }
}

extension Hints {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "balance"); w.integer(balance)
        o.key(&w, "granted"); w.integer(granted)
        o.key(&w, "used"); w.integer(used)
        o.key(&w, "used_by_kind")
        var k = ObjectWriter(&w)
        k.key(&w, "fifty_fifty"); w.integer(usedFiftyFifty)
        k.key(&w, "reveal"); w.integer(usedReveal)
        k.end(&w)
        o.end(&w)
    }
}

extension Stats {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "quizzes_completed"); w.integer(quizzesCompleted)
        o.key(&w, "questions_answered"); w.integer(questionsAnswered)
        o.key(&w, "correct"); w.integer(correct)
        o.key(&w, "accuracy"); w.integer(accuracy)
        o.key(&w, "puzzles_completed"); w.integer(puzzlesCompleted)
        o.key(&w, "submissions"); w.integer(submissions)
        o.key(&w, "first_active"); w.day(firstActive)
        o.key(&w, "last_active"); w.day(lastActive)
        o.key(&w, "active_days"); w.integer(activeDays)
        o.end(&w)
    }
}

extension Achievement {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "id"); w.string(id.rawValue)
        o.key(&w, "day"); w.day(day)
        o.end(&w)
    }
}

extension Anomaly {
    func write(to w: inout JSONWriter) {
        var o = ObjectWriter(&w)
        o.key(&w, "seq"); w.integer(seq)
        o.key(&w, "kind"); w.string(kind.rawValue)
        o.key(&w, "detail"); w.string(detail)
        o.end(&w)
    }
}
