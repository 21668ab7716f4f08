import Events

/// Achievements, earned at the event after which their condition first holds.
/// In the quizzes scope: a `quizzes` or `all` reset starts them afresh.
package enum AchievementsProjection {
    /// Days in a run for `streak_7` and `perfect_week`.
    package static let weekDays = 7
    /// Finished quizzes for `quizzes_30`.
    package static let quizzesNeeded = 30
    /// Perfect finished quizzes for `perfect_10`.
    package static let perfectNeeded = 10

    /// What the conditions need, since the latest quizzes reset (the
    /// streak's days and grace are the learner's ``StreakFold``).
    package struct State: Sendable, Hashable {
        /// Earned, in order.
        package var earned: [Achievement] = []
        /// Days with a perfect finished daily attempt.
        package var perfectDailyDays = ActiveDays()
        /// Finished quizzes.
        package var finished = 0
        /// Perfect finished quizzes.
        package var perfect = 0

        /// Nothing earned.
        package init() {}

        func has(_ id: Achievement.ID) -> Bool { earned.contains { $0.id == id } }
    }

    /// Folds one step, after the learner's `streak` folded it (`streakChanged`:
    /// whether its days or grace changed).
    package static func reduce(into state: inout State, _ step: Step, streak: StreakFold, streakChanged: Bool) {
        var judge = streakChanged
        if case .reset(let scope) = step.effect, scope.covers(.quizzes) {
            state = State()
            judge = true
        }
        if judge { judgeStreak7(&state, step, streak) }
        guard case .finished(let attempt) = step.effect, step.counts else { return }
        state.finished += 1
        if state.finished == quizzesNeeded, !state.has(.quizzes30) {
            state.earned.append(Achievement(.quizzes30, day: attempt.day))
        }
        guard attempt.isPerfect else { return }
        state.perfect += 1
        if state.perfect == perfectNeeded, !state.has(.perfect10) {
            state.earned.append(Achievement(.perfect10, day: attempt.day))
        }
        guard attempt.isDaily else { return }
        state.perfectDailyDays.insert(attempt.day)
        if !state.has(.perfectWeek), let run = state.perfectDailyDays.run(containing: attempt.day),
           run.end.ordinal - run.start.ordinal + 1 >= weekDays {
            state.earned.append(Achievement(.perfectWeek, day: run.start.adding(days: weekDays - 1)))
        }
    }

    /// `streak_7` follows the streak itself: it is the 7th active day of the
    /// first run with 7 of the streak's day walk (``StreakFold/firstRun(reaching:)``),
    /// so it always names a run the streak's `runs` show. Earned (appended)
    /// the first time such a run exists; re-dated when a late event or a reset
    /// moves that run; removed when no run has 7 any more (a reset of a
    /// source the streak counts). The walk judges each day from the inputs on
    /// days up to it only, so a change on a day after the 7th day changes
    /// nothing of it: only a change on or before it, or a reset, is judged again.
    private static func judgeStreak7(_ state: inout State, _ step: Step, _ streak: StreakFold) {
        let k = state.earned.firstIndex { $0.id == .streak7 }
        if let k, step.day > state.earned[k].day, !step.isReset { return }
        switch (k, streak.firstRun(reaching: weekDays)) {
        case let (k?, day?): state.earned[k].day = day
        case let (k?, nil): state.earned.remove(at: k)
        case let (nil, day?): state.earned.append(Achievement(.streak7, day: day))
        case (nil, nil): break
        }
    }
}
