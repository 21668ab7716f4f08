/// The ten event types of format version 1.
public enum EventType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A learner opened a quiz.
    case quizStarted = "quiz.started"
    /// A learner answered a question of an attempt.
    case answerSelected = "answer.selected"
    /// A learner used a hint on a question.
    case hintUsed = "hint.used"
    /// A learner reached the end of an attempt.
    case quizFinished = "quiz.finished"
    /// A learner quit an attempt early.
    case quizAbandoned = "quiz.abandoned"
    /// A learner solved a puzzle.
    case puzzleCompleted = "puzzle.completed"
    /// A learner failed a puzzle.
    case puzzleFailed = "puzzle.failed"
    /// A lesson's or passage's answers were submitted at once.
    case submissionMade = "submission.made"
    /// Hints were added to the learner's balance.
    case hintsGranted = "hints.granted"
    /// The learner cleared progress in a scope.
    case progressReset = "progress.reset"

    /// The type's name as written in the log.
    public var description: String { rawValue }
}
