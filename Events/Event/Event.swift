/// One learner action: its type and its typed `data` members.
public enum Event: Sendable, Hashable {
    /// `quiz.started`.
    case quizStarted(QuizStarted)
    /// `answer.selected`.
    case answerSelected(AnswerSelected)
    /// `hint.used`.
    case hintUsed(HintUsed)
    /// `quiz.finished`.
    case quizFinished(AttemptEnded)
    /// `quiz.abandoned`.
    case quizAbandoned(AttemptEnded)
    /// `puzzle.completed`.
    case puzzleCompleted(PuzzlePlayed)
    /// `puzzle.failed`.
    case puzzleFailed(PuzzlePlayed)
    /// `submission.made`.
    case submissionMade(SubmissionMade)
    /// `hints.granted`.
    case hintsGranted(HintsGranted)
    /// `progress.reset`.
    case progressReset(ProgressReset)

    /// The event's type.
    public var type: EventType {
        switch self {
        case .quizStarted: .quizStarted
        case .answerSelected: .answerSelected
        case .hintUsed: .hintUsed
        case .quizFinished: .quizFinished
        case .quizAbandoned: .quizAbandoned
        case .puzzleCompleted: .puzzleCompleted
        case .puzzleFailed: .puzzleFailed
        case .submissionMade: .submissionMade
        case .hintsGranted: .hintsGranted
        case .progressReset: .progressReset
        }
    }

    /// The attempt this event belongs to, for the quiz event types; nil otherwise.
    public var attempt: String? {
        switch self {
        case .quizStarted(let e): e.attempt
        case .answerSelected(let e): e.attempt
        case .hintUsed(let e): e.attempt
        case .quizFinished(let e), .quizAbandoned(let e): e.attempt
        default: nil
        }
    }
}
