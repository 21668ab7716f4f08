import Events

/// One of the user's events as the ``AttemptsBook`` read it: the day it
/// counts on, what it did, and the anomalies it carries.
///
/// Every projection folds steps, so the attempt rules (which attempt, which
/// day, first answers only, nothing after the end, resets) are applied once.
package struct Step: Sendable {
    /// What an event did, once the attempt rules are applied.
    package enum Effect: Sendable {
        /// A new attempt started (its first `quiz.started`).
        case started(Attempt)
        /// The first answer to a question of a running attempt; the attempt includes it.
        case answered(Attempt, Attempt.Answer)
        /// A hint was used; `attempt` is nil when the attempt is unknown. Hints always cost.
        case hinted(HintUsed, attempt: Attempt?)
        /// A running attempt finished; the attempt includes its ending.
        case finished(Attempt)
        /// A running attempt was abandoned; the attempt includes its ending.
        case abandoned(Attempt)
        /// One puzzle attempt.
        case puzzle(PuzzlePlayed, completed: Bool)
        /// A submission.
        case submitted(SubmissionMade)
        /// Hints granted.
        case granted(HintsGranted)
        /// A progress reset.
        case reset(ProgressReset.Scope)
        /// Streak freezes granted (format version 2).
        case freezeGranted(StreakFreezeGranted)
        /// A streak pause (format version 2).
        case paused(StreakPaused)
        /// A quiz event the attempt rules refuse (a reused attempt id, an unknown
        /// attempt, an event after the end, a second answer): only its anomalies count.
        case ignored
    }

    /// The event.
    package let envelope: Envelope
    /// The day it counts on: its attempt's start day for quiz events, else its own day.
    package let day: Day
    /// What it did.
    package let effect: Effect
    /// Whether it counts in the quiz-scoped projections: false for events of an
    /// attempt started before the latest `quizzes`/`all` reset. Always true for
    /// other events (their scopes are cleared by the `.reset` step itself).
    package let counts: Bool
    /// The anomalies the attempt rules found, in the spec's order.
    package let anomalies: [Anomaly]

    /// The event's `seq`.
    package var seq: Int { envelope.seq }

    /// Whether it is a reset.
    package var isReset: Bool {
        if case .reset = effect { true } else { false }
    }

    /// The attempt this step changed or named, if any.
    package var attempt: Attempt? {
        switch effect {
        case .started(let a), .answered(let a, _), .finished(let a), .abandoned(let a): a
        case .hinted(_, let a): a
        default: nil
        }
    }

    /// The attempt, when the step counts for the quiz projections (not ignored, not stale).
    package var countedAttempt: Attempt? {
        guard counts else { return nil }
        switch effect {
        case .started(let a), .answered(let a, _), .finished(let a), .abandoned(let a): return a
        default: return nil
        }
    }
}
