import Events

/// The one per-learner streak fold: what every reader of a streak composes
/// (`state`, `streak_7`, `explain`, the dashboard, the audit's
/// `freeze_overflow`, the report's `streaks`, the leaderboard). It holds, once:
///
/// - the active days of each source its mode counts (``Source``), so a reset
///   clears only its scope;
/// - the grace: the learner's freeze grants and pauses (``StreakGrace``),
///   never reset.
///
/// Which resets apply, and whether a finished attempt counts (started after
/// the latest `quizzes`/`all` reset), are the attempt lifecycle's verdicts
/// (``AttemptLifecycle``, under its ``ResetPolicy``: the reset watermark is
/// its store's): this fold is handed them. `through` cuts the days it reads:
/// activity and grace on later days are not kept (the report's streaks at
/// `to`, the leaderboard's at LAST). Day-indexed and independent of D: the
/// runs, freezes and overflows are read from the day walk (``StreakWalk``)
/// at the end.
///
/// Each fold writes only what it adds: ``reduce(_:)`` for `state`'s steps;
/// ``finish(on:daily:counts:)``, ``reset(_:)`` and ``add(_:on:seq:)`` for the
/// compact folds that apply the lifecycle to storages of their own. Each
/// returns whether the walk's inputs changed.
package struct StreakFold: Sendable, Hashable {
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
        package func counts(in mode: StreakMode) -> Bool {
            switch mode {
            case .daily: self == .dailyQuiz
            case .any: self != .dailyQuiz
            }
        }

        /// The reset scope that clears this source.
        package var scope: ProgressReset.Scope {
            switch self {
            case .dailyQuiz, .quiz: .quizzes
            case .puzzle: .puzzles
            case .submission: .submissions
            }
        }
    }

    /// Which days are active (`--streak-on`): only its sources are kept.
    package let mode: StreakMode
    /// The last day read; activity and grace on later days are not kept (nil: every day).
    package let through: Day?
    /// Days with a finished daily attempt (started that day), in mode `daily`.
    private var dailyQuiz = ActiveDays()
    /// Days with any finished attempt (started that day), in mode `any`.
    private var quiz = ActiveDays()
    /// Days with a completed puzzle, in mode `any`.
    private var puzzle = ActiveDays()
    /// Days with a submission, in mode `any`.
    private var submission = ActiveDays()
    /// Freeze grants and pauses (never reset).
    package private(set) var grace = StreakGrace()

    /// No active day; days after `through` are not read.
    package init(mode: StreakMode, through: Day? = nil) {
        self.mode = mode
        self.through = through
    }

    // MARK: - Folding

    /// Folds one step of the learner's ``AttemptsBook``.
    @discardableResult
    package mutating func reduce(_ step: Step) -> Bool {
        switch step.effect {
        case .finished(let attempt): finish(on: attempt.day, daily: attempt.isDaily, counts: step.counts)
        case .reset(let scope): reset(scope)
        case .puzzle(_, completed: true), .submitted, .freezeGranted, .paused: add(step.envelope.event, on: step.day, seq: step.seq)
        default: false
        }
    }

    /// A finished attempt, on its start day: its day is active when the
    /// attempt counts (the lifecycle's verdict), in mode `daily` when it is a
    /// daily quiz.
    @discardableResult
    package mutating func finish(on day: Day, daily: Bool, counts: Bool) -> Bool {
        guard activates(day, daily: daily, counts: counts) else { return false }
        switch mode {
        case .daily: return dailyQuiz.insert(day)
        case .any: return quiz.insert(day)
        }
    }

    /// Whether ``finish(on:daily:counts:)`` keeps `day` as active: the
    /// attempt counts, `day` is read, and in mode `daily` it is a daily quiz.
    /// (A fold may gather such days and finish them later, in any order:
    /// the days are a set; the report does, its learners' days on the heap.)
    @inline(__always)
    package func activates(_ day: Day, daily: Bool, counts: Bool) -> Bool {
        guard counts, reads(day) else { return false }
        switch mode {
        case .daily: return daily
        case .any: return true
        }
    }

    /// An event on its own day other than an attempt's: a completed puzzle
    /// and a submission (active in mode `any`), a freeze grant or a pause.
    @discardableResult
    package mutating func add(_ event: Event, on day: Day, seq: Int) -> Bool {
        guard reads(day) else { return false }
        switch event {
        case .puzzleCompleted: return mode == .any && puzzle.insert(day)
        case .submissionMade: return mode == .any && submission.insert(day)
        case .streakFreezeGranted, .streakPaused: return grace.add(event, on: day, seq: seq)
        default: return false
        }
    }

    /// A reset the attempt lifecycle applied: the days of the sources in its
    /// scope are cleared (never the grace: a freeze may have been bought).
    @discardableResult
    package mutating func reset(_ scope: ProgressReset.Scope) -> Bool {
        var changed = false
        for source in Source.allCases where scope.covers(source.scope) && !self[keyPath: Self.days(source)].isEmpty {
            self[keyPath: Self.days(source)] = ActiveDays()
            changed = true
        }
        return changed
    }

    /// Whether activity and grace on `day` are read.
    @inline(__always)
    private func reads(_ day: Day) -> Bool { through.map { day <= $0 } ?? true }

    /// Where the active days of a source are kept.
    private static func days(_ source: Source) -> WritableKeyPath<StreakFold, ActiveDays> {
        switch source {
        case .dailyQuiz: \.dailyQuiz
        case .quiz: \.quiz
        case .puzzle: \.puzzle
        case .submission: \.submission
        }
    }

    // MARK: - Reading

    /// The active days.
    package var activeDays: ActiveDays {
        switch mode {
        case .daily: dailyQuiz
        case .any: quiz.union(puzzle).union(submission)
        }
    }

    /// The day walk through `last`; `today` (D) is not over (nil: every day is).
    package func walk(through last: Day, today: Day?) -> StreakWalk {
        StreakWalk.walked(activeDays, grace, through: last, today: today)
    }

    /// The streak at `day` (D), as `state` prints it.
    package func streak(at day: Day) -> Streak {
        Streak.at(day, activeDays: activeDays, grace: grace)
    }

    /// The grants over the cap: the walk carried on to the last grant's day
    /// (every day before it judged), whatever D is.
    package var overflows: [StreakWalk.Overflow] {
        guard let last = grace.lastGrantDay else { return [] }
        return walk(through: last, today: nil).overflows
    }

    /// The `n`th active day of the first run of the walk with `n` active days
    /// (frozen and paused days neither count nor break a run), every day up to
    /// the last active day being over; nil if no run has `n` (`streak_7`).
    package func firstRun(reaching n: Int) -> Day? {
        let active = activeDays
        guard active.count >= n, let last = active.days.last else { return nil }
        // A run's active days are the active days from its start to its end.
        guard let run = StreakWalk.walked(active, grace, through: last, today: nil).runs.first(where: { $0.run.days >= n })?.run,
              let k = active.days.firstIndex(of: run.start) else { return nil }
        return active.days[k + n - 1]
    }

    /// A value that changes whenever the streak at `day` can change, far
    /// cheaper to read than the streak: the number of active days on or
    /// before `day` of each source kept (an event adds a day or a reset
    /// clears a source, never both), and the number of freeze grants and
    /// pauses (never reset: they only grow). What `explain` watches.
    package func changeMark(through day: Day) -> [Int] {
        Source.allCases.filter { $0.counts(in: mode) }.map { self[keyPath: Self.days($0)].count(through: day) }
            + [grace.grants.count, grace.pauses.count]
    }
}
