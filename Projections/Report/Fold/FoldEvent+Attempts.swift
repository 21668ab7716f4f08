import Events

/// A compact fold's event (ids as bytes) as the attempt lifecycle reads it:
/// what the report and the leaderboard hand ``AttemptLifecycle`` and their
/// ``AttemptTable``.
extension FoldEvent.View: AttemptEvent {
    typealias Name = FoldAttemptName
    typealias Start = FoldEvent.View
    typealias Answer = FoldEvent.View
    typealias Hint = FoldEvent.View

    var attemptStep: AttemptStep<FoldEvent.View> {
        let attempt = FoldAttemptName(id: attempt, chunk: numbers.chunk, number: numbers.attempt)
        switch type {
        case .quizStarted: return .start(attempt, self)
        case .answerSelected: return .answer(attempt, self)
        case .hintUsed: return .hint(attempt, self)
        case .quizFinished: return .end(attempt, finished: true)
        case .quizAbandoned: return .end(attempt, finished: false)
        case .progressReset:
            // A reset's event is always kept whole (`FoldEvent.payload`).
            guard case .progressReset(let reset)? = payload else { return .other }
            return .reset(reset.scope)
        case .puzzleCompleted, .puzzleFailed, .submissionMade, .hintsGranted, .streakFreezeGranted, .streakPaused:
            return .other
        }
    }
}

/// An attempt id as a compact fold's event names it: its bytes, and its
/// number in its reader's chunk (``FoldEvent/View/Numbers``; -1 when not numbered).
struct FoldAttemptName {
    /// The id's UTF-8 bytes.
    let id: UnsafeRawBufferPointer
    /// The chunk it was numbered in (-1: none).
    let chunk: Int
    /// Its number there.
    let number: Int32
}
