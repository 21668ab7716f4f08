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
        w.object { w, o in
            o.string(&w, "user", user)
            o.day(&w, "day", day)
            o.key(&w, "daily_quiz"); dailyQuiz.write(to: &w)
            o.key(&w, "streak"); streak.write(to: &w)
            o.array(&w, "history", history) { w, e in e.write(to: &w) }
            o.array(&w, "quizzes", quizzes) { w, q in q.write(to: &w) }
            o.array(&w, "puzzles", puzzles) { w, p in p.write(to: &w) }
            o.array(&w, "submissions", submissions) { w, s in s.write(to: &w) }
            o.key(&w, "study_plan"); studyPlan.write(to: &w)
            o.key(&w, "hints"); hints.write(to: &w)
            o.key(&w, "stats"); stats.write(to: &w)
            o.array(&w, "achievements", achievements) { w, a in a.write(to: &w) }
            o.array(&w, "anomalies", anomalies) { w, a in a.write(to: &w) }
        }
    }
}

// Members in the spec's order, grouped on a line as projections.md lists them.

extension DailyQuiz {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.day(&w, "day", day); o.string(&w, "status", status.rawValue)
            o.string(&w, "quiz", quiz); o.string(&w, "attempt", attempt)
            o.integer(&w, "answered", answered); o.integer(&w, "next_question", nextQuestion)
            o.integer(&w, "score", score); o.integer(&w, "total", total)
            o.bool(&w, "completed", completed); o.integer(&w, "best_score", bestScore); o.timestamp(&w, "completed_at", completedAt)
            o.integer(&w, "attempts", attempts); o.integer(&w, "retries_used", retriesUsed); o.integer(&w, "retries_left", retriesLeft)
        }
    }
}

extension Streak {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.integer(&w, "current", current); o.bool(&w, "active_today", activeToday); o.integer(&w, "longest", longest)
            o.objects(&w, "runs", runs) { w, r, run in
                r.day(&w, "start", run.start); r.day(&w, "end", run.end); r.integer(&w, "days", run.days)
                r.array(&w, "frozen", run.frozen) { w, d in w.day(d) }; r.integer(&w, "paused", run.paused)
            }
            o.object(&w, "freezes") { w, f in
                f.integer(&w, "held", freezes.held); f.integer(&w, "granted", freezes.granted); f.integer(&w, "used", freezes.used)
            }
        }
    }
}

extension HistoryEntry {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.day(&w, "day", day); o.string(&w, "quiz", quiz)
            o.integer(&w, "best_score", bestScore); o.integer(&w, "total", total); o.integer(&w, "percent", percent)
            o.timestamp(&w, "completed_at", completedAt)
        }
    }
}

extension QuizSummary {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.string(&w, "quiz", quiz)
            o.integer(&w, "attempts", attempts); o.integer(&w, "finished", finished); o.integer(&w, "abandoned", abandoned)
            o.integer(&w, "retries", retries)
            o.integer(&w, "best_score", bestScore); o.integer(&w, "best_percent", bestPercent); o.integer(&w, "latest_percent", latestPercent)
            o.number(&w, "fastest_seconds", fastestSeconds?.description)
        }
    }
}

extension PuzzleSummary {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.string(&w, "puzzle", puzzle); o.string(&w, "encoding", encoding)
            o.integer(&w, "attempts", attempts); o.integer(&w, "completed", completed); o.integer(&w, "failed", failed)
            o.number(&w, "best_seconds", bestSeconds?.literal)
            o.object(&w, "latest") { w, l in
                l.string(&w, "outcome", latest.outcome.rawValue); l.timestamp(&w, "at", latest.at); l.number(&w, "seconds", latest.seconds?.literal)
            }
        }
    }
}

extension SubmissionSummary {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.string(&w, "content", content); o.string(&w, "kind", kind.rawValue); o.string(&w, "category", category)
            o.integer(&w, "total_attempts", totalAttempts); o.integer(&w, "best_score", bestScore); o.integer(&w, "latest_score", latestScore)
            o.objects(&w, "recent", recent) { w, e, r in
                e.integer(&w, "score", r.score); e.integer(&w, "correct", r.correct); e.integer(&w, "total", r.total); e.timestamp(&w, "at", r.at)
            }
        }
    }
}

extension StudyPlan {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.objects(&w, "categories", categories) { w, e, c in
                e.string(&w, "category", c.category); e.bool(&w, "diagnostic_completed", c.diagnosticCompleted)
                e.array(&w, "skills", c.skills) { w, s in s.write(to: &w, level: true, category: false) }
                e.array(&w, "strengths", c.strengths) { w, s in s.write(to: &w, level: false, category: false) }
                e.array(&w, "weaknesses", c.weaknesses) { w, s in s.write(to: &w, level: false, category: false) }
            }
            o.array(&w, "strengths", strengths) { w, s in s.write(to: &w, level: false, category: true) }
            o.array(&w, "weaknesses", weaknesses) { w, s in s.write(to: &w, level: false, category: true) }
            o.array(&w, "recommended", recommended) { w, id in w.string(id) }
        }
    }
}

extension StudyPlan.SkillResult {
    func write(to w: inout JSONWriter, level: Bool, category: Bool) {
        w.object { w, o in
            o.string(&w, "skill", skill)
            o.integer(&w, "correct", correct); o.integer(&w, "total", total); o.integer(&w, "percent", percent)
            if level { o.string(&w, "level", self.level.rawValue) }
            if category { o.string(&w, "category", self.category) }
        }
    }
}

extension Hints {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.integer(&w, "balance", balance); o.integer(&w, "granted", granted); o.integer(&w, "used", used)
            o.object(&w, "used_by_kind") { w, k in k.integer(&w, "fifty_fifty", usedFiftyFifty); k.integer(&w, "reveal", usedReveal) }
        }
    }
}

extension Stats {
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.integer(&w, "quizzes_completed", quizzesCompleted)
            o.integer(&w, "questions_answered", questionsAnswered); o.integer(&w, "correct", correct); o.integer(&w, "accuracy", accuracy)
            o.integer(&w, "puzzles_completed", puzzlesCompleted); o.integer(&w, "submissions", submissions)
            o.day(&w, "first_active", firstActive); o.day(&w, "last_active", lastActive); o.integer(&w, "active_days", activeDays)
            o.number(&w, "time_spent_seconds", timeSpent.description)
        }
    }
}

extension Achievement {
    func write(to w: inout JSONWriter) {
        w.object { w, o in o.string(&w, "id", id.rawValue); o.day(&w, "day", day) }
    }
}

extension Anomaly {
    func write(to w: inout JSONWriter) {
        w.object { w, o in o.integer(&w, "seq", seq); o.string(&w, "kind", kind.rawValue); o.string(&w, "detail", detail) }
    }
}
