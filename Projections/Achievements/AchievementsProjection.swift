import Events

/// Achievements, earned at the event after which their condition first holds.
/// In the quizzes scope: a `quizzes` or `all` reset starts them afresh (but
/// for the streak's freezes and pauses, which are never reset).
package enum AchievementsProjection {
    /// Days in a run for `streak_7` and `perfect_week`.
    package static let weekDays = 7
    /// Finished quizzes for `quizzes_30`.
    package static let quizzesNeeded = 30
    /// Perfect finished quizzes for `perfect_10`.
    package static let perfectNeeded = 10

    /// What the conditions need, since the latest quizzes reset.
    package struct State: Sendable, Hashable {
        /// Which days are active (as for the streak).
        package let mode: StreakMode
        /// Earned, in order.
        package var earned: [Achievement] = []
        /// Active days (as the streak counts them in `mode`).
        package var activeDays = ActiveDays()
        /// Freeze grants and pauses (never reset).
        package var grace = StreakGrace()
        /// Days with a perfect finished daily attempt.
        package var perfectDailyDays = ActiveDays()
        /// Finished quizzes.
        package var finished = 0
        /// Perfect finished quizzes.
        package var perfect = 0

        /// Nothing earned.
        package init(mode: StreakMode) { self.mode = mode }

        func has(_ id: Achievement.ID) -> Bool { earned.contains { $0.id == id } }
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        if case .reset(let scope) = step.effect {
            if scope.covers(.quizzes) {
                let grace = state.grace
                state = State(mode: state.mode)
                state.grace = grace
            }
            return
        }
        var changed = state.grace.add(step.envelope.event, on: step.day, seq: step.seq)
        var inserted: Day? = nil
        for (source, day) in StreakProjection.activity(of: step) where source.counts(in: state.mode) {
            if state.activeDays.insert(day) { changed = true; inserted = day }
        }
        if changed, !state.has(.streak7), let day = seventhDay(state.activeDays, state.grace, inserted: inserted) {
            state.earned.append(Achievement(.streak7, day: day))
        }
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

    /// The 7th active day of the first run of the streak's day walk with 7
    /// active days (frozen and paused days neither count nor break a run), or
    /// nil. Without grants and pauses the walk's runs are the runs of
    /// consecutive active days, and none had 7 before this step: only the run
    /// of the day just `inserted` can, so it alone is looked at (no walk of the
    /// whole history on every new day).
    private static func seventhDay(_ activeDays: ActiveDays, _ grace: StreakGrace, inserted: Day?) -> Day? {
        guard activeDays.count >= weekDays, let last = activeDays.days.last else { return nil }
        if grace.isEmpty {
            guard let inserted, let run = activeDays.run(containing: inserted),
                  run.end.ordinal - run.start.ordinal + 1 >= weekDays else { return nil }
            return run.start.adding(days: weekDays - 1)
        }
        let walk = StreakWalk.walked(activeDays, grace, through: last, today: nil)
        guard let run = walk.runs.first(where: { $0.run.days >= weekDays })?.run,
              let k = activeDays.days.firstIndex(of: run.start) else { return nil }
        return activeDays.days[k + weekDays - 1]
    }
}
