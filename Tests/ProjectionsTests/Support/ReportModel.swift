import Events
@testable import Projections

/// A small model of the report written from the spec's wording, with plain
/// collections: dictionaries of attempts per user, sets of users per day,
/// lists of results. It shares no code with `ReportBuilder` and its
/// `AttemptLifecycle` (ids and names are compared as UTF-8 bytes, as the
/// spec compares them exactly).
enum ReportModel {
    private struct Attempt {
        var day: Int, questions: Int, daily: Bool, epoch: Int
        var answered: Set<[UInt8]> = [], score = 0, ended = false
    }

    private struct Tally {
        var users: Set<[UInt8]> = []
        var started = 0, finished = 0, answers = 0, correct = 0, hints = 0, solved = 0, failed = 0, submissions = 0
        /// Finished attempts' (score, questions), in log order.
        var results: [(Int, Int)] = []
        var skills: [[UInt8]: (correct: Int, answers: Int)] = [:]

        mutating func answer(_ correct: Bool, _ skill: String?) {
            answers += 1
            if correct { self.correct += 1 }
            if let skill { skills[Array(skill.utf8), default: (0, 0)].correct += correct ? 1 : 0; skills[Array(skill.utf8), default: (0, 0)].answers += 1 }
        }
    }

    /// `round(100 * part / whole)`, halves up; nil when the whole is 0.
    static func percent(_ part: Int, _ whole: Int) -> Int? { whole == 0 ? nil : (200 * part + whole) / (2 * whole) }

    /// The mean of `100 * score / questions`, halves up: exactly over the least
    /// common multiple of the totals, or in doubles when that does not fit.
    static func meanPercent(_ results: [(Int, Int)]) -> Int? {
        guard !results.isEmpty else { return nil }
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        var l = 1
        var fits = true
        for (_, q) in results {
            let (m, o) = l.multipliedReportingOverflow(by: q / gcd(l, q))
            if o || m > Int.max / 400 / results.count { fits = false; break }
            l = m
        }
        if fits {
            let sum = results.reduce(0) { $0 + $1.0 * (l / $1.1) }
            return percent(sum, l * results.count)
        }
        let mean = 100 * results.reduce(0.0) { $0 + Double($1.0) / Double($1.1) } / Double(results.count)
        return Int((mean + 0.5).rounded(.down))
    }

    private static func counts(_ t: Tally) -> Report.Counts {
        var c = Report.Counts()
        c.activeUsers = t.users.count
        c.quizzesStarted = t.started; c.quizzesFinished = t.finished
        c.completionRate = percent(t.finished, t.started)
        c.meanScorePercent = meanPercent(t.results)
        c.answers = t.answers; c.accuracy = percent(t.correct, t.answers)
        c.hintsUsed = t.hints; c.puzzlesCompleted = t.solved; c.puzzlesFailed = t.failed; c.submissions = t.submissions
        return c
    }

    /// The report of `records` for the days `from` ... `to`.
    static func report(_ records: [Record], from: Day? = nil, to: Day? = nil) -> Report {
        let toBound = to?.ordinal ?? Int.max
        var attempts: [[UInt8]: [[UInt8]: Attempt]] = [:]
        var epochs: [[UInt8]: Int] = [:]
        var streakDays: [[UInt8]: Set<Int>] = [:]
        // Freeze grants (day, amount) in log order and paused days, on days up to `to`.
        var grants: [[UInt8]: [(Int, Int)]] = [:]
        var pausedDays: [[UInt8]: Set<Int>] = [:]
        var tallies: [Int: Tally] = [:]
        var seen: [Int] = []
        for record in records {
            guard case .event(let e) = record else { continue }
            let user = Array(e.user.utf8)
            let own = e.day.ordinal
            let id = e.event.attempt.map { Array($0.utf8) }
            let known = id.flatMap { attempts[user]?[$0] }
            // An attempt's answers, hints and end are on its start day; a quiz.started on its own.
            let day = e.event.type != .quizStarted && known != nil ? known?.day ?? own : own
            seen.append(day)
            var t = tallies[day] ?? Tally()
            if ![.hintsGranted, .streakFreezeGranted, .streakPaused].contains(e.event.type) { t.users.insert(user) }
            switch e.event {
            case .quizStarted(let s):
                if known == nil, let id {
                    attempts[user, default: [:]][id] = Attempt(day: own, questions: s.questions, daily: s.isDaily,
                                                              epoch: epochs[user] ?? 0)
                    t.started += 1
                }
            case .answerSelected(let a):
                if let id, var attempt = known, !attempt.ended, attempt.answered.insert(Array(a.question.utf8)).inserted {
                    if a.correct { attempt.score += 1 }
                    attempts[user]?[id] = attempt
                    t.answer(a.correct, a.skill)
                }
            case .hintUsed:
                t.hints += 1
            case .quizFinished, .quizAbandoned:
                if let id, var attempt = known, !attempt.ended {
                    attempt.ended = true
                    attempts[user]?[id] = attempt
                    if e.event.type == .quizFinished {
                        t.finished += 1
                        t.results.append((attempt.score, attempt.questions))
                        if attempt.daily, attempt.epoch == epochs[user] ?? 0, day <= toBound {
                            streakDays[user, default: []].insert(day)
                        }
                    }
                }
            case .puzzleCompleted: t.solved += 1
            case .puzzleFailed: t.failed += 1
            case .submissionMade(let s):
                t.submissions += 1
                for a in s.answers { t.answer(a.correct, a.skill) }
            case .progressReset(let r):
                if r.scope == .all || r.scope == .quizzes, day <= toBound {
                    epochs[user, default: 0] += 1
                    streakDays[user] = []
                }
            case .hintsGranted: break
            case .streakFreezeGranted(let g):
                if day <= toBound { grants[user, default: []].append((day, g.amount)) }
            case .streakPaused(let p):
                if day <= toBound { pausedDays[user, default: []].formUnion(p.from.ordinal...p.to.ordinal) }
            }
            tallies[day] = t
        }
        let first: Int, last: Int
        switch (from?.ordinal, to?.ordinal, seen.min(), seen.max()) {
        case let (f?, t?, _, _): (first, last) = (f, t)
        case let (f?, nil, _, hi): (first, last) = (f, max(hi ?? f, f))
        case let (nil, t?, lo, _): (first, last) = (min(lo ?? t, t), t)
        case let (nil, nil, lo?, hi?): (first, last) = (lo, hi)
        default: return Report(from: nil, to: nil, days: [], totals: Report.Counts(), skills: [], streaks: [])
        }
        var rows: [Report.DayRow] = []
        var total = Tally()
        for d in stride(from: first, through: last, by: 1) {
            let t = tallies[d] ?? Tally()
            rows.append(Report.DayRow(day: Day(ordinal: d), counts: counts(t)))
            total.users.formUnion(t.users)
            total.started += t.started; total.finished += t.finished; total.answers += t.answers
            total.correct += t.correct; total.hints += t.hints; total.solved += t.solved; total.failed += t.failed
            total.submissions += t.submissions; total.results += t.results
            for (k, v) in t.skills {
                total.skills[k, default: (0, 0)].correct += v.correct
                total.skills[k, default: (0, 0)].answers += v.answers
            }
        }
        var buckets: [Int: Int] = [:]
        for user in total.users {
            // projections.md's day walk, every calendar day from the first active or grant day to `last`.
            let days = streakDays[user] ?? [], given = grants[user] ?? [], paused = pausedDays[user] ?? []
            var held = 0
            var run: Int? = nil
            if let start = (Array(days) + given.map(\.0)).min(), start <= last {
                for x in start...last {
                    for (day, amount) in given where day == x { held = min(2, held + amount) }
                    if days.contains(x) {
                        run = (run ?? 0) + 1
                    } else if paused.contains(x) || x == last {
                        continue
                    } else if run != nil, held > 0 {
                        held -= 1
                    } else {
                        run = nil
                    }
                }
            }
            buckets[run ?? 0, default: 0] += 1
        }
        return Report(
            from: Day(ordinal: first), to: Day(ordinal: last), days: rows, totals: counts(total),
            skills: total.skills.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map {
                Report.SkillRow(skill: String(decoding: $0.key, as: UTF8.self), correct: $0.value.correct, answers: $0.value.answers)
            },
            streaks: buckets.sorted { $0.key < $1.key }.map { Report.StreakBucket(current: $0.key, users: $0.value) })
    }
}
