@testable import Events

// Frozen copy of the former library code: see ReferenceLineCodec.swift.
/// Decodes and validates the `data` members of each event type.
enum ReferenceEventDecoder {
    static func event(_ type: EventType, _ members: [JSONMember]) throws(EventError) -> Event {
        let r = ReferenceMemberReader(members, path: "data", kind: .invalidData)
        switch type {
        case .quizStarted: return .quizStarted(try quizStarted(r))
        case .answerSelected: return .answerSelected(try answerSelected(r))
        case .hintUsed:
            let e = HintUsed(attempt: try r.string("attempt"), question: try r.string("question"),
                             hint: try r.enumeration("hint", HintUsed.Kind.self),
                             extra: r.extra(known: ["attempt", "question", "hint"]))
            return .hintUsed(e)
        case .quizFinished: return .quizFinished(try attemptEnded(r))
        case .quizAbandoned: return .quizAbandoned(try attemptEnded(r))
        case .puzzleCompleted: return .puzzleCompleted(try puzzle(r, secondsRequired: true))
        case .puzzleFailed: return .puzzleFailed(try puzzle(r, secondsRequired: false))
        case .submissionMade: return .submissionMade(try submission(r))
        case .hintsGranted:
            let e = HintsGranted(amount: try r.integer("amount", min: 1),
                                 reason: try r.enumeration("reason", HintsGranted.Reason.self),
                                 extra: r.extra(known: ["amount", "reason"]))
            return .hintsGranted(e)
        case .progressReset:
            return .progressReset(ProgressReset(scope: try r.enumeration("scope", ProgressReset.Scope.self),
                                                extra: r.extra(known: ["scope"])))
        }
    }

    private static func quizStarted(_ r: ReferenceMemberReader) throws(EventError) -> QuizStarted {
        QuizStarted(
            attempt: try r.string("attempt"), quiz: try r.string("quiz"),
            questions: try r.integer("questions", min: 1), daily: try r.optionalBool("daily"),
            title: try r.optionalString("title"), category: try r.optionalString("category"),
            difficulty: try r.optionalString("difficulty"), diagnostic: try r.optionalBool("diagnostic"),
            extra: r.extra(known: ["attempt", "quiz", "questions", "daily", "title", "category", "difficulty", "diagnostic"]))
    }

    private static func answerSelected(_ r: ReferenceMemberReader) throws(EventError) -> AnswerSelected {
        AnswerSelected(
            attempt: try r.string("attempt"), question: try r.string("question"),
            choice: try r.integer("choice", min: 0), correct: try r.bool("correct"),
            correctChoice: try r.optionalInteger("correct_choice", min: 0), skill: try r.optionalString("skill"),
            ms: try r.optionalInteger("ms", min: 0),
            extra: r.extra(known: ["attempt", "question", "choice", "correct", "correct_choice", "skill", "ms"]))
    }

    private static func attemptEnded(_ r: ReferenceMemberReader) throws(EventError) -> AttemptEnded {
        AttemptEnded(attempt: try r.string("attempt"), extra: r.extra(known: ["attempt"]))
    }

    private static func puzzle(_ r: ReferenceMemberReader, secondsRequired: Bool) throws(EventError) -> PuzzlePlayed {
        let puzzle = try r.string("puzzle")
        let encoding = try r.string("encoding")
        var seconds: Seconds? = nil
        let raw = secondsRequired ? try r.required("seconds") : r.optional("seconds")
        if let raw {
            guard case .number(let literal) = raw else {
                throw r.error("seconds", "must be a number > 0, not \(raw.referenceTypeName)")
            }
            guard let s = Seconds(literal: literal) else {
                throw r.error("seconds", "must be a number > 0 (got \(literal.referencePrefix))")
            }
            seconds = s
        }
        return PuzzlePlayed(puzzle: puzzle, encoding: encoding, seconds: seconds,
                            extra: r.extra(known: ["puzzle", "encoding", "seconds"]))
    }

    private static func submission(_ r: ReferenceMemberReader) throws(EventError) -> SubmissionMade {
        let content = try r.string("content")
        let kind = try r.enumeration("kind", SubmissionMade.Kind.self)
        let category = try r.string("category")
        let diagnostic = try r.optionalBool("diagnostic")
        let seconds = try r.optionalInteger("seconds", min: 0)
        let raw = try r.required("answers")
        guard case .array(let items) = raw else { throw r.error("answers", "must be an array, not \(raw.referenceTypeName)") }
        var answers: [SubmissionMade.Answer] = []
        answers.reserveCapacity(items.count)
        var questions = Set<String>()
        for (index, item) in items.enumerated() {
            let path = "data.answers[\(index)]"
            guard case .object(let members) = item else {
                throw EventError(.invalidData, member: path, "must be an object, not \(item.referenceTypeName)")
            }
            let a = ReferenceMemberReader(members, path: path, kind: .invalidData)
            let answer = SubmissionMade.Answer(
                question: try a.string("question"), choice: try a.integer("choice", min: 0),
                correct: try a.bool("correct"), skill: try a.optionalString("skill"),
                extra: a.extra(known: ["question", "choice", "correct", "skill"]))
            guard questions.insert(answer.question).inserted else {
                throw a.error("question", "must be distinct within a submission (\"\(answer.question.referencePrefix)\" repeats)")
            }
            answers.append(answer)
        }
        return SubmissionMade(content: content, kind: kind, category: category, diagnostic: diagnostic,
                              seconds: seconds, answers: answers,
                              extra: r.extra(known: ["content", "kind", "category", "diagnostic", "seconds", "answers"]))
    }
}
