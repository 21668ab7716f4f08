import Events

/// An event as the attempt lifecycle reads it: its day and what it does to
/// attempts. A record's ``Envelope`` (`state`'s ``AttemptsBook``, the
/// question analysis), or a compact fold's `FoldEvent.View` (ids as bytes:
/// the report, the leaderboard).
protocol AttemptEvent {
    /// An attempt id as the event names it.
    associatedtype Name
    /// What a store reads of a `quiz.started`.
    associatedtype Start
    /// What a store reads of an `answer.selected`.
    associatedtype Answer
    /// What a store reads of a `hint.used`.
    associatedtype Hint
    /// The event's own day.
    var day: Day { get }
    /// What it does to attempts, before the lifecycle's rules.
    var attemptStep: AttemptStep<Self> { get }
}

/// What an event does to attempts, as it is written (the lifecycle then
/// decides what it counts for).
enum AttemptStep<E: AttemptEvent> {
    /// A `quiz.started` of this attempt id.
    case start(E.Name, E.Start)
    /// An `answer.selected` naming this attempt id.
    case answer(E.Name, E.Answer)
    /// A `hint.used` naming this attempt id.
    case hint(E.Name, E.Hint)
    /// A `quiz.finished` (`finished`) or `quiz.abandoned` naming this attempt id.
    case end(E.Name, finished: Bool)
    /// A `progress.reset`.
    case reset(ProgressReset.Scope)
    /// Any other event.
    case other
}

extension Envelope: AttemptEvent {
    typealias Name = String
    typealias Start = QuizStarted
    typealias Answer = AnswerSelected
    typealias Hint = HintUsed

    var attemptStep: AttemptStep<Envelope> {
        switch event {
        case .quizStarted(let started): .start(started.attempt, started)
        case .answerSelected(let answer): .answer(answer.attempt, answer)
        case .hintUsed(let hint): .hint(hint.attempt, hint)
        case .quizFinished(let end): .end(end.attempt, finished: true)
        case .quizAbandoned(let end): .end(end.attempt, finished: false)
        case .progressReset(let reset): .reset(reset.scope)
        case .puzzleCompleted, .puzzleFailed, .submissionMade, .hintsGranted, .streakFreezeGranted, .streakPaused: .other
        }
    }
}

/// Where the attempt lifecycle keeps the attempts it has seen: the learner's
/// ``AttemptsBook`` (whole attempts, for `state`) or the report's
/// ``AttemptTable`` (an id and a start day per attempt). The store only stores;
/// what an event does is decided by ``AttemptLifecycle/apply(_:to:resets:)``.
protocol AttemptStore {
    /// A stored attempt; valid until the store changes.
    associatedtype Ref
    /// The events it is handed.
    associatedtype Input: AttemptEvent
    /// The attempt of the event's user with this exact id, nil if never
    /// started (mutating: a store may remember the last one found).
    mutating func find(_ id: Input.Name) -> Ref?
    /// The attempt's day: that of its first `quiz.started`.
    func day(_ attempt: Ref) -> Day
    /// Whether it has not yet finished or been abandoned.
    func isRunning(_ attempt: Ref) -> Bool
    /// Stores a new attempt, running, started by this event.
    mutating func start(_ started: Input.Start, _ event: Input) -> Ref
    /// Stores a first answer unless the question of this running attempt
    /// already has one; false then (the answer is a duplicate).
    mutating func answer(_ attempt: Ref, _ answer: Input.Answer, _ event: Input) -> Bool
    /// Stores a hint on one of its questions (running or not).
    mutating func hint(_ attempt: Ref, _ hint: Input.Hint)
    /// Ends a running attempt.
    mutating func end(_ attempt: Ref, finished: Bool, _ event: Input)
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
    static func apply<Store: AttemptStore>(_ e: Store.Input, to store: inout Store,
                                           resets: ResetPolicy = .every) -> (verdict: Verdict<Store.Ref>, day: Day) {
        switch e.attemptStep {
        case .start(let id, let started):
            if let known = store.find(id) { return (.duplicateStart(known), e.day) }
            return (.started(store.start(started, e)), e.day)
        case .answer(let id, let answer):
            guard let attempt = store.find(id) else { return (.unknown, e.day) }
            guard store.isRunning(attempt) else { return (.afterEnd(attempt), store.day(attempt)) }
            let first = store.answer(attempt, answer, e)
            return (first ? .answered(attempt) : .duplicateAnswer(attempt), store.day(attempt))
        case .hint(let id, let hint):
            guard let attempt = store.find(id) else { return (.hinted(nil, afterEnd: false), e.day) }
            let over = !store.isRunning(attempt)
            store.hint(attempt, hint)
            return (.hinted(attempt, afterEnd: over), store.day(attempt))
        case .end(let id, let finished):
            guard let attempt = store.find(id) else { return (.unknown, e.day) }
            guard store.isRunning(attempt) else { return (.afterEnd(attempt), store.day(attempt)) }
            let counts = store.counts(attempt)
            store.end(attempt, finished: finished, e)
            return (.ended(attempt, finished: finished, counts: counts), store.day(attempt))
        case .reset(let scope):
            guard resets.applies(on: e.day) else { return (.other, e.day) }
            if scope.covers(.quizzes) { store.resetQuizzes() }
            return (.reset(scope), e.day)
        case .other:
            return (.other, e.day)
        }
    }

    /// Whether an attempt started under `startEpoch` resets counts after
    /// `epoch` of them (`quizzes`/`all`): only attempts started after the
    /// latest reset count.
    @inline(__always)
    static func counts(startEpoch: Int, epoch: Int) -> Bool { startEpoch == epoch }
}
