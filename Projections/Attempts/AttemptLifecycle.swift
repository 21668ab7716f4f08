import Events

/// Where the attempt lifecycle keeps the attempts it has seen: the learner's
/// ``AttemptsBook`` (whole attempts, for `state`) or the report's
/// ``AttemptTable`` (an id and a start day per attempt). The store only stores;
/// what an event does is decided by ``AttemptLifecycle/apply(_:to:)``.
protocol AttemptStore {
    /// A stored attempt; valid until the store changes.
    associatedtype Ref
    /// The attempt of the event's user with this exact id, nil if never
    /// started (mutating: a store may remember the last one found).
    mutating func find(_ id: String) -> Ref?
    /// The attempt's day: that of its first `quiz.started`.
    func day(_ attempt: Ref) -> Day
    /// Whether it has not yet finished or been abandoned.
    func isRunning(_ attempt: Ref) -> Bool
    /// Stores a new attempt, running, started by this event.
    mutating func start(_ started: QuizStarted, _ envelope: Envelope) -> Ref
    /// Stores a first answer unless the question of this running attempt
    /// already has one; false then (the answer is a duplicate).
    mutating func answer(_ attempt: Ref, _ answer: AnswerSelected, _ envelope: Envelope) -> Bool
    /// Stores a hint on one of its questions (running or not).
    mutating func hint(_ attempt: Ref, _ hint: HintUsed)
    /// Ends a running attempt.
    mutating func end(_ attempt: Ref, finished: Bool, _ envelope: Envelope)
    /// A `quizzes`/`all` reset of the event's user: the attempts running or
    /// ended so far stop counting (the reset watermark moves on).
    mutating func resetQuizzes()
    /// Whether a running attempt started after its user's latest `quizzes`/`all` reset.
    func counts(_ attempt: Ref) -> Bool
}

/// The one attempt lifecycle, for `state` and `report` alike: which attempt
/// an event belongs to, the day it is on, which `quiz.started` starts an
/// attempt, which answer is an attempt's first to a question, and what comes
/// too late (spec: "The day of an attempt's events", "Results", "anomalies").
enum AttemptLifecycle {
    /// What the rules make of one event.
    enum Verdict<Ref> {
        /// The first `quiz.started` of an id: a new attempt.
        case started(Ref)
        /// A `quiz.started` reusing an id: it starts nothing.
        case duplicateStart(Ref)
        /// The first answer to a question of a running attempt.
        case answered(Ref)
        /// Another answer to a question of a running attempt.
        case duplicateAnswer(Ref)
        /// A `hint.used` (it always costs); nil for an unknown attempt.
        case hinted(Ref?, afterEnd: Bool)
        /// A running attempt finished or was abandoned; `counts` when it
        /// started after the latest `quizzes`/`all` reset.
        case ended(Ref, finished: Bool, counts: Bool)
        /// A `progress.reset` the policy applies (a `quizzes`/`all` one has
        /// moved the store's reset watermark on).
        case reset(ProgressReset.Scope)
        /// An answer, finish or abandon naming no attempt this user started earlier.
        case unknown
        /// An answer, finish or abandon of an attempt that is already over.
        case afterEnd(Ref)
        /// Not an attempt event (a reset the policy does not apply included).
        case other
    }

    /// Applies one v1 event of a user, in log order, to that user's `store`;
    /// returns what it did and the day it is on. An event of a known attempt is
    /// on that attempt's day. Every other event, a `quiz.started` included (a
    /// duplicate one starts nothing, so it is on its own day), is on its own day.
    /// A reset is applied when `resets` says so: the lifecycle alone moves the
    /// store's reset watermark.
    @inline(__always)
    static func apply<Store: AttemptStore>(_ e: Envelope, to store: inout Store,
                                           resets: ResetPolicy = .every) -> (verdict: Verdict<Store.Ref>, day: Day) {
        switch e.event {
        case .quizStarted(let started):
            if let known = store.find(started.attempt) { return (.duplicateStart(known), e.day) }
            return (.started(store.start(started, e)), e.day)
        case .answerSelected(let answer):
            guard let attempt = store.find(answer.attempt) else { return (.unknown, e.day) }
            guard store.isRunning(attempt) else { return (.afterEnd(attempt), store.day(attempt)) }
            let first = store.answer(attempt, answer, e)
            return (first ? .answered(attempt) : .duplicateAnswer(attempt), store.day(attempt))
        case .hintUsed(let hint):
            guard let attempt = store.find(hint.attempt) else { return (.hinted(nil, afterEnd: false), e.day) }
            let over = !store.isRunning(attempt)
            store.hint(attempt, hint)
            return (.hinted(attempt, afterEnd: over), store.day(attempt))
        case .quizFinished(let end), .quizAbandoned(let end):
            guard let attempt = store.find(end.attempt) else { return (.unknown, e.day) }
            guard store.isRunning(attempt) else { return (.afterEnd(attempt), store.day(attempt)) }
            let finished = e.event.type == .quizFinished
            let counts = store.counts(attempt)
            store.end(attempt, finished: finished, e)
            return (.ended(attempt, finished: finished, counts: counts), store.day(attempt))
        case .progressReset(let reset):
            guard resets.applies(on: e.day) else { return (.other, e.day) }
            if reset.scope.covers(.quizzes) { store.resetQuizzes() }
            return (.reset(reset.scope), e.day)
        case .puzzleCompleted, .puzzleFailed, .submissionMade, .hintsGranted, .streakFreezeGranted, .streakPaused:
            return (.other, e.day)
        }
    }

    /// Whether an attempt started under `startEpoch` resets counts after
    /// `epoch` of them (`quizzes`/`all`): only attempts started after the
    /// latest reset count.
    @inline(__always)
    static func counts(startEpoch: Int, epoch: Int) -> Bool { startEpoch == epoch }
}
