@testable import Projections
import Events

// The report fold as it was before the lean fold (`Projections/Report/`), kept
// frozen as the oracle of the agreement tests (ReportAgreementTests): every
// user's events through a full `AttemptsBook` (plus a second one for `--to`)
// and `StreakProjection`, per-day tallies in dictionaries of user sets.
//
// The files in this folder are the library's former `ReportBuilder`,
// `DayTally` and `ScoreMean`, renamed with a `Reference` prefix and otherwise
// unchanged. Do not "fix" them: they define what the fast fold must do, byte
// for byte of the report's JSON. The shared rules they call (`AttemptsBook`,
// `StreakProjection`, `Streak`) are the ones `state` uses; the whole test suite
// guards those.

/// Folds the records of one or more logs, in order, into a ``Report``.
///
/// Every rule comes from the projections the learner's state uses: each user's
/// events go through their own ``AttemptsBook`` (which attempt, its start day,
/// first answers, what is ignored), and the streak at `to` is the streak rule
/// of `state` (``StreakProjection``, ``Streak``). The counts are activity: a
/// `progress.reset` removes nothing from them.
struct ReferenceReportBuilder: Sendable {
    /// One user's folds.
    struct Learner: Sendable {
        /// Every event of the user: decides each event's day and effect.
        var book = AttemptsBook()
        /// When `to` is given: a book fed only the events on days up to `to`,
        /// so the streak is computed as `state --day TO` would from them
        /// (a later reset or a later reuse of an attempt id changes nothing).
        var bookUpToTo: AttemptsBook?
        /// The active days of the streak, from the events on days up to `to`.
        var streak = StreakProjection.State()

        /// Folds one event; returns the step of the full book.
        mutating func fold(_ envelope: Envelope, to: Day?) -> Step {
            let step = book.apply(envelope)
            guard let to else {
                StreakProjection.reduce(into: &streak, step)
                return step
            }
            if step.day <= to {
                if bookUpToTo == nil { bookUpToTo = AttemptsBook() }
                if let filtered = bookUpToTo?.apply(envelope) { StreakProjection.reduce(into: &streak, filtered) }
            }
            return step
        }
    }

    private let from: Day?
    private let to: Day?
    private var tallies: [Day: ReferenceDayTally] = [:]
    private var learners: [ExactString: Learner] = [:]
    private var firstDay: Day?
    private var lastDay: Day?

    /// Makes an empty report of the days `from` ... `to`; a bound left nil is
    /// the first (last) day with any v1 event.
    init(from: Day? = nil, to: Day? = nil) {
        self.from = from
        self.to = to
    }

    /// Folds one record of a log, in log order. Lines of a newer version are skipped.
    mutating func add(_ record: Record) {
        guard case .v1(let envelope) = record else { return }
        let step = learners[ExactString(envelope.user), default: Learner()].fold(envelope, to: to)
        let day = step.day
        if firstDay.map({ day < $0 }) ?? true { firstDay = day }
        if lastDay.map({ day > $0 }) ?? true { lastDay = day }
        if let from, day < from { return }
        if let to, day > to { return }
        tallies[day, default: ReferenceDayTally()].count(step)
    }

    /// The report of everything folded so far.
    func report() -> Report {
        guard let (first, last) = range else {
            return Report(from: nil, to: nil, days: [], totals: Report.Counts(), skills: [], streaks: [])
        }
        var total = ReferenceDayTally()
        var rows: [Report.DayRow] = []
        rows.reserveCapacity(last.ordinal - first.ordinal + 1)
        var day = first
        while day <= last {
            let tally = tallies[day] ?? ReferenceDayTally()
            total.merge(tally)
            rows.append(Report.DayRow(day: day, counts: tally.counts))
            day = day.adding(days: 1)
        }
        let skills = total.skills.sorted { $0.key < $1.key }.map {
            Report.SkillRow(skill: $0.key.value, correct: $0.value.correct, answers: $0.value.answers)
        }
        var buckets: [Int: Int] = [:]
        for user in total.users {
            let days = learners[user]?.streak.activeDays(.daily) ?? ActiveDays()
            buckets[Streak.current(at: last, activeDays: days), default: 0] += 1
        }
        let streaks = buckets.sorted { $0.key < $1.key }.map { Report.StreakBucket(current: $0.key, users: $0.value) }
        return Report(from: first, to: last, days: rows, totals: total.counts, skills: skills, streaks: streaks)
    }

    /// The report's days: the given bounds, else the first and last day with a
    /// v1 event; a default that would fall on the wrong side of a given bound
    /// gives way to it. Nil with no bound and no event.
    private var range: (Day, Day)? {
        switch (from, to) {
        case let (f?, t?): return (f, t)
        case let (f?, nil): return (f, lastDay.map { max($0, f) } ?? f)
        case let (nil, t?): return (firstDay.map { min($0, t) } ?? t, t)
        case (nil, nil):
            guard let firstDay, let lastDay else { return nil }
            return (firstDay, lastDay)
        }
    }
}

extension ReferenceDayTally {
    /// Counts one step on its day.
    mutating func count(_ step: Step) {
        if step.envelope.event.type != .hintsGranted { users.insert(ExactString(step.envelope.user)) }
        switch step.effect {
        case .started:
            started += 1
        case .answered(_, let answer):
            self.answer(correct: answer.correct, skill: answer.skill)
        case .hinted:
            hints += 1
        case .finished(let attempt):
            finished += 1
            scores.add(score: attempt.score, questions: attempt.questions)
        case .puzzle(_, let completed):
            if completed { puzzlesCompleted += 1 } else { puzzlesFailed += 1 }
        case .submitted(let submission):
            submissions += 1
            for a in submission.answers { answer(correct: a.correct, skill: a.skill) }
        case .abandoned, .granted, .reset, .ignored:
            break
        }
    }
}
