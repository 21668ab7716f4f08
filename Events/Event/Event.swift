/// One learner action: its type and its typed `data` members.
///
/// This file is the list of the format's event types: adding a type adds
/// its case to ``Event`` and ``EventType`` and a line to each switch below;
/// everything else about it lives in its payload's file (`Events/Event/`).
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
    /// `streak.freeze_granted` (format version 2).
    case streakFreezeGranted(StreakFreezeGranted)
    /// `streak.paused` (format version 2).
    case streakPaused(StreakPaused)

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
        case .streakFreezeGranted: .streakFreezeGranted
        case .streakPaused: .streakPaused
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

    /// Hands the payload to `visitor` (the codec's writers, the append check, Codable).
    package func accept<V: PayloadVisitor>(_ visitor: inout V) {
        switch self {
        case .quizStarted(let p): visitor.visit(p, as: .quizStarted)
        case .answerSelected(let p): visitor.visit(p, as: .answerSelected)
        case .hintUsed(let p): visitor.visit(p, as: .hintUsed)
        case .quizFinished(let p): visitor.visit(p, as: .quizFinished)
        case .quizAbandoned(let p): visitor.visit(p, as: .quizAbandoned)
        case .puzzleCompleted(let p): visitor.visit(p, as: .puzzleCompleted)
        case .puzzleFailed(let p): visitor.visit(p, as: .puzzleFailed)
        case .submissionMade(let p): visitor.visit(p, as: .submissionMade)
        case .hintsGranted(let p): visitor.visit(p, as: .hintsGranted)
        case .progressReset(let p): visitor.visit(p, as: .progressReset)
        case .streakFreezeGranted(let p): visitor.visit(p, as: .streakFreezeGranted)
        case .streakPaused(let p): visitor.visit(p, as: .streakPaused)
        }
    }

    /// The rule the payload breaks against `day` (the day of the event's own
    /// `at`) or among its members together, as `data.NAME` and the rule; nil
    /// when it keeps them (``Payload/problem(onDay:)``).
    package func problem(onDay day: Day) -> (member: String, rule: String)? {
        var check = DayCheck(day: day)
        accept(&check)
        return check.problem
    }
}

/// Runs a payload's ``Payload/problem(onDay:)``.
private struct DayCheck: PayloadVisitor {
    let day: Day
    var problem: (member: String, rule: String)?

    mutating func visit<P: Payload>(_ payload: P, as type: EventType) {
        problem = payload.problem(onDay: day).map { ("data." + $0.member.rawValue, $0.rule) }
    }
}

/// The event types, named as the log writes them.
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
    /// Streak freezes were granted to the learner (format version 2).
    case streakFreezeGranted = "streak.freeze_granted"
    /// The learner paused their streak for a range of days (format version 2).
    case streakPaused = "streak.paused"

    /// The type's name as written in the log.
    public var description: String { rawValue }

    /// The format version that defined the type: a line of this type carries
    /// it as `v` (events-v2.md, "Which `v` a line carries").
    public var version: Int {
        switch self {
        case .quizStarted, .answerSelected, .hintUsed, .quizFinished, .quizAbandoned, .puzzleCompleted,
             .puzzleFailed, .submissionMade, .hintsGranted, .progressReset: 1
        case .streakFreezeGranted, .streakPaused: 2
        }
    }

    /// The members of the type's `data`.
    @inline(__always) var layout: MemberLayout { EventType.layouts[declarationIndex(self)] }

    /// Each type's layout, by case, made once.
    private static let layouts: [MemberLayout] = allCases.map { type in
        precondition(hasDeclarationIndices(EventType.self), "a type's index is its case's place")
        switch type {
        case .quizStarted: return MemberLayout(QuizStarted.Member.self)
        case .answerSelected: return MemberLayout(AnswerSelected.Member.self)
        case .hintUsed: return MemberLayout(HintUsed.Member.self)
        case .quizFinished, .quizAbandoned: return MemberLayout(AttemptEnded.Member.self)
        case .puzzleCompleted, .puzzleFailed: return MemberLayout(PuzzlePlayed.Member.self)
        case .submissionMade: return MemberLayout(SubmissionMade.Member.self)
        case .hintsGranted: return MemberLayout(HintsGranted.Member.self)
        case .progressReset: return MemberLayout(ProgressReset.Member.self)
        case .streakFreezeGranted: return MemberLayout(StreakFreezeGranted.Member.self)
        case .streakPaused: return MemberLayout(StreakPaused.Member.self)
        }
    }

    /// The event of this type whose `data` was scanned as `d` (what the scan
    /// spilled kept in `spilled`), read by its payload with `rules`; with a
    /// `recorder`, a placeholder event whose payload's init noted its rules (``DataRules``).
    func decode(_ rules: FieldRules, _ d: DataCapture, _ spilled: Spilled, recorder: DataRules.Recorder? = nil) throws(EventError) -> Event {
        switch self {
        case .quizStarted: .quizStarted(try QuizStarted(DataReader(rules, d, spilled, recorder: recorder)))
        case .answerSelected: .answerSelected(try AnswerSelected(DataReader(rules, d, spilled, recorder: recorder)))
        case .hintUsed: .hintUsed(try HintUsed(DataReader(rules, d, spilled, recorder: recorder)))
        case .quizFinished: .quizFinished(try AttemptEnded(DataReader(rules, d, spilled, recorder: recorder)))
        case .quizAbandoned: .quizAbandoned(try AttemptEnded(DataReader(rules, d, spilled, recorder: recorder)))
        case .puzzleCompleted: .puzzleCompleted(try PuzzlePlayed(DataReader(rules, d, spilled, recorder: recorder)))
        case .puzzleFailed: .puzzleFailed(try PuzzlePlayed(DataReader(rules, d, spilled, recorder: recorder)))
        case .submissionMade: .submissionMade(try SubmissionMade(DataReader(rules, d, spilled, recorder: recorder)))
        case .hintsGranted: .hintsGranted(try HintsGranted(DataReader(rules, d, spilled, recorder: recorder)))
        case .progressReset: .progressReset(try ProgressReset(DataReader(rules, d, spilled, recorder: recorder)))
        case .streakFreezeGranted: .streakFreezeGranted(try StreakFreezeGranted(DataReader(rules, d, spilled, recorder: recorder)))
        case .streakPaused: .streakPaused(try StreakPaused(DataReader(rules, d, spilled, recorder: recorder)))
        }
    }
}
