import Events

/// A compact fold's event (ids as bytes) as the attempt lifecycle reads it:
/// what the report and the leaderboard hand ``AttemptLifecycle`` and their
/// ``AttemptTable``.
extension FoldEvent.View: AttemptEvent {
    typealias Name = UnsafeRawBufferPointer
    typealias Start = FoldStart
    typealias Answer = FoldAnswer
    typealias Hint = Void

    // Inlined into the lifecycle's switch: the step is never built in memory
    // (a call returning it indirectly cost ~32 instructions an event).
    @inline(__always)
    var attemptStep: AttemptStep<FoldEvent.View> {
        switch type {
        // What the store reads, not the whole view (112 bytes, copied into the step).
        case .quizStarted: return .start(attempt, FoldStart(questions: questions, daily: daily))
        case .answerSelected: return .answer(attempt, FoldAnswer(question: question, correct: correct))
        case .hintUsed: return .hint(attempt, ())
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

/// What ``AttemptTable`` reads of a `quiz.started` of a compact fold.
struct FoldStart {
    /// Its `questions`.
    let questions: Int
    /// Its `daily`.
    let daily: Bool
}

/// What ``AttemptTable`` reads of an `answer.selected` of a compact fold.
struct FoldAnswer {
    /// Its `question`'s UTF-8 bytes.
    let question: UnsafeRawBufferPointer
    /// Its `correct`.
    let correct: Bool
}
