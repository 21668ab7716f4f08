import Events

/// The fold behind the streak: the learner's active days, kept per source so a
/// reset clears only its scope, and their freezes and pauses (never reset).
/// Day-indexed and independent of D; the streak at D is computed at the end
/// (``Streak/at(_:activeDays:grace:)``).
package enum StreakProjection {
    /// What makes a day active.
    package enum Source: Sendable, Hashable, CaseIterable {
        /// A finished daily attempt, on its start day.
        case dailyQuiz
        /// Any finished attempt, on its start day (`--streak-on any`).
        case quiz
        /// A completed puzzle, on its day (`--streak-on any`).
        case puzzle
        /// A submission, on its day (`--streak-on any`).
        case submission

        /// Whether the source counts in a mode.
        package func counts(in mode: StreakMode) -> Bool { mode == .any || self == .dailyQuiz }

        /// The reset scope that clears this source.
        package var scope: ProgressReset.Scope {
            switch self {
            case .dailyQuiz, .quiz: .quizzes
            case .puzzle: .puzzles
            case .submission: .submissions
            }
        }
    }

    /// The active days of each source.
    package struct State: Sendable, Hashable {
        /// Days with a finished daily attempt (started that day).
        package var dailyQuiz = ActiveDays()
        /// Days with any finished attempt (started that day).
        package var quiz = ActiveDays()
        /// Days with a completed puzzle.
        package var puzzle = ActiveDays()
        /// Days with a submission.
        package var submission = ActiveDays()
        /// Freeze grants and pauses.
        package var grace = StreakGrace()

        /// No active day.
        package init() {}

        /// A value that changes whenever the streak at `day` can change, far
        /// cheaper to read than the streak: the number of active days on or
        /// before `day` of each source the mode counts (an event adds a day
        /// or a reset clears a source, never both), and the number of freeze
        /// grants and pauses (never reset: they only grow). What `explain` watches.
        package func changeMark(through day: Day, _ mode: StreakMode) -> [Int] {
            Source.allCases.filter { $0.counts(in: mode) }.map { self[keyPath: StreakProjection.days($0)].count(through: day) }
                + [grace.grants.count, grace.pauses.count]
        }

        /// The active days in a mode.
        package func activeDays(_ mode: StreakMode) -> ActiveDays {
            switch mode {
            case .daily: dailyQuiz
            case .any: quiz.union(puzzle).union(submission)
            }
        }
    }

    /// The days a step makes active, with their source: the one rule of "active day".
    package static func activity(of step: Step) -> [(source: Source, day: Day)] {
        switch step.effect {
        case .finished(let attempt):
            return [Source.dailyQuiz, .quiz].filter { activates($0, daily: attempt.isDaily, counts: step.counts) }
                .map { ($0, attempt.day) }
        case .puzzle(_, completed: true):
            return [(.puzzle, step.day)]
        case .submitted:
            return [(.submission, step.day)]
        default:
            return []
        }
    }

    /// Whether a finished attempt makes its start day active for a quiz
    /// source: it counts (started after the latest quiz reset), and for
    /// `.dailyQuiz` it is a daily quiz. The report's daily streak uses it too.
    @inline(__always)
    package static func activates(_ source: Source, daily: Bool, counts: Bool) -> Bool {
        counts && (source == .quiz || (source == .dailyQuiz && daily))
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        state.grace.reduce(step)
        if case .reset(let scope) = step.effect {
            for source in Source.allCases where scope.covers(source.scope) { state[keyPath: days(source)] = ActiveDays() }
            return
        }
        for (source, day) in activity(of: step) { state[keyPath: days(source)].insert(day) }
    }

    /// Where the active days of a source are kept.
    fileprivate static func days(_ source: Source) -> WritableKeyPath<State, ActiveDays> {
        switch source {
        case .dailyQuiz: \.dailyQuiz
        case .quiz: \.quiz
        case .puzzle: \.puzzle
        case .submission: \.submission
        }
    }
}
