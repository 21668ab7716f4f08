import Events

/// A learner's own dashboard, built from the state at D and the same fold,
/// which the `Rendering` module draws as one self-contained HTML page (inline
/// SVG, no script, no URL to anything outside it): score over time (the daily quiz and all quizzes), accuracy by
/// category and skill (the study plan's), a calendar of active, frozen and
/// paused days with the streak and the freezes held, per-quiz best and
/// fastest, puzzles' best times, the hint balance, the time spent per day,
/// and today's reviews with a 14-day forecast.
public struct LearnerDashboard: Sendable {
    /// One day's score: the best percent of the day's finished daily attempts,
    /// and the exact mean percent of every finished attempt that day.
    package struct DayScore: Sendable {
        package var daily: Int?
        package var all = ScoreMean()
    }

    /// The state shown.
    public let state: LearnerState
    /// Per start day, from the counted finished attempts (resets apply).
    package let scores: [Day: DayScore]
    /// Nanoseconds spent per day, as `stats.time_spent_seconds` counts them.
    package let timeByDay: [Day: Int64]
    /// The streak's days for the calendar: active, frozen, paused.
    package let streakDays: StreakDays

    /// What the calendar shows of each day: an active day, a day a freeze
    /// kept the streak alive, a day of a pause (planned ones after D too).
    package struct StreakDays: Sendable {
        package var active = ActiveDays()
        package var frozen: Set<Day> = []
        package var pauses: [ClosedRange<Day>] = []

        package func paused(_ day: Day) -> Bool { pauses.contains { $0.contains(day) } }
    }

    /// The dashboard of a projector's learner at `day` (nil: the state's default D).
    public init(_ projector: LearnerProjector, day: Day? = nil) {
        state = projector.state(day: day)
        var scores: [Day: DayScore] = [:]
        let book = projector.book
        for attempt in book.attempts where attempt.isFinished && book.counts(attempt) {
            if let d = state.day, attempt.day > d { continue }
            scores[attempt.day, default: DayScore()].all.add(score: attempt.score, questions: attempt.questions)
            if attempt.isDaily, let p = attempt.percent {
                let best = max(scores[attempt.day]?.daily ?? p, p)
                scores[attempt.day]?.daily = best
            }
        }
        self.scores = scores
        timeByDay = projector.timeSpent.byDay
        var days = StreakDays()
        if let walk = projector.streakWalk(day: day) {
            days.active = walk.activeDays
            days.frozen = Set(walk.runs.flatMap(\.run.frozen))
        }
        days.pauses = projector.streakGrace.pauses.map { $0.from...$0.to }
        streakDays = days
    }

    /// Days shown in the calendar: the 12 weeks (Monday to Sunday) ending with D's week.
    package static let calendarWeeks = 12
}
