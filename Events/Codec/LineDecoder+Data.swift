/// The members of one object as scanned: the known ones by slot, the rest kept in order.
struct ObjectCapture {
    var slots = Slots()
    /// The members the object's type does not define, as written.
    var extra: [JSONMember] = []
}

/// `data` as scanned for one event type.
struct DataCapture {
    /// The type it was scanned for; nil before it is scanned.
    var type: EventType? = nil
    var members = ObjectCapture()
    /// A submission's answers, when `answers` is an array.
    var answers: [AnswerCapture] = []

    @inline(__always) subscript(_ k: Int) -> Capture { members.slots[k] }
    var extra: [JSONMember] { members.extra }
}

/// One item of a submission's `answers`.
struct AnswerCapture {
    /// The item's JSON kind: only an object has members.
    var kind: Capture.Kind
    var members = ObjectCapture()
}

extension LineDecoder {
    // MARK: - Scanning

    /// Scans the object at `i` as `type`'s `data`, into `d` (fresh).
    mutating func scanData(_ type: EventType, into d: inout DataCapture) throws(EventError) {
        d.type = type
        try scanMembers(of: type, into: &d.members, answers: &d.answers)
    }

    /// Scans a submission's `answers` array at `i`.
    private mutating func scanAnswers(_ answers: inout [AnswerCapture]) throws(EventError) -> Capture {
        let start = s.i
        if try s.openArray() {
            answers.reserveCapacity(8)
            var none: [AnswerCapture] = []
            repeat {
                s.skipWhitespace()
                if s.peek() == UInt8(ascii: "{") {
                    var a = AnswerCapture(kind: .object)
                    try scanMembers(of: nil, into: &a.members, answers: &none)
                    answers.append(a)
                } else {
                    answers.append(AnswerCapture(kind: try s.captureValue().kind))
                }
            } while try s.nextItem()
        }
        return Capture(.array, start: start, end: s.i)
    }

    /// Scans the object at `i`, `type`'s `data` or (nil) a submission's
    /// answer: its members (each once) into their slots, a submission's
    /// `answers` array into `answers`, the others into `extra` as written.
    /// Names are first matched with the writer's order (`WriterOrder`).
    private mutating func scanMembers(
        of type: EventType?, into o: inout ObjectCapture, answers: inout [AnswerCapture]
    ) throws(EventError) {
        let tokens = type.map(WriterOrder.data) ?? WriterOrder.answer
        guard try s.openObject() else { return }
        var seen: UInt16 = 0
        var duplicates = DuplicateCheck()
        var next = 0
        var first = true
        while true {
            let nameOffset: Int
            var slot: Int? = nil
            var name = Capture()
            if let token = s.matchName(tokens, next: next, first: first) {
                nameOffset = s.i - token.count + token.quote
                s.skipWhitespace()
                slot = token.slot
            } else {
                if !first, !(try s.nextMember()) { break }
                s.skipWhitespace()
                nameOffset = s.i
                name = try s.memberName()
                let member = s.identify(name, { DataMember($0) }, { DataMember($0) })
                slot = type.map { member?.slot(in: $0) } ?? member?.answerSlot
                if let slot {
                    guard seen & (1 << slot) == 0 else { throw s.duplicate(tokens[slot].name, at: nameOffset) }
                    try s.colon()
                }
            }
            first = false
            if let slot {
                let bit: UInt16 = 1 << slot
                guard seen & bit == 0 else { throw s.duplicate(tokens[slot].name, at: nameOffset) }
                seen |= bit
                next = slot + 1
                if type == .submissionMade, slot == 5, s.peek() == UInt8(ascii: "[") {
                    o.slots[slot] = try scanAnswers(&answers)
                } else {
                    o.slots[slot] = try s.captureValue()
                }
            } else {
                let text = s.string(name)
                if duplicates.repeats(text, among: o.extra.lazy.map(\.name)) { throw s.duplicate(text, at: nameOffset) }
                try s.colon()
                o.extra.append(JSONMember(text, try s.parseValue()))
            }
        }
    }

    // MARK: - The types' rules

    /// The typed event: `data`'s members checked in the type's order.
    func event(_ type: EventType, _ d: DataCapture) throws(EventError) -> Event {
        let f = FieldRules(s, .data, materialize: materializeData)
        switch type {
        case .quizStarted:
            return .quizStarted(QuizStarted(
                attempt: try f.string(d[0], "attempt"), quiz: try f.string(d[1], "quiz"),
                questions: try f.integer(d[2], .questions), daily: try f.optionalBool(d[3], "daily"),
                title: try f.optionalString(d[4], "title"), category: try f.optionalString(d[5], "category"),
                difficulty: try f.optionalString(d[6], "difficulty"), diagnostic: try f.optionalBool(d[7], "diagnostic"),
                extra: d.extra))
        case .answerSelected:
            return .answerSelected(AnswerSelected(
                attempt: try f.string(d[0], "attempt"), question: try f.string(d[1], "question"),
                choice: try f.integer(d[2], .choice), correct: try f.bool(d[3], "correct"),
                correctChoice: try f.optionalInteger(d[4], .correctChoice),
                skill: try f.optionalString(d[5], "skill"), ms: try f.optionalInteger(d[6], .ms),
                extra: d.extra))
        case .hintUsed:
            return .hintUsed(HintUsed(
                attempt: try f.string(d[0], "attempt"), question: try f.string(d[1], "question"),
                hint: try f.enumeration(d[2], "hint", HintUsed.Kind.init(utf8:)), extra: d.extra))
        case .quizFinished:
            return .quizFinished(AttemptEnded(attempt: try f.string(d[0], "attempt"), extra: d.extra))
        case .quizAbandoned:
            return .quizAbandoned(AttemptEnded(attempt: try f.string(d[0], "attempt"), extra: d.extra))
        case .puzzleCompleted:
            return .puzzleCompleted(try puzzle(d, f, secondsRequired: true))
        case .puzzleFailed:
            return .puzzleFailed(try puzzle(d, f, secondsRequired: false))
        case .submissionMade:
            return .submissionMade(try submission(d, f))
        case .hintsGranted:
            return .hintsGranted(HintsGranted(
                amount: try f.integer(d[0], .amount),
                reason: try f.enumeration(d[1], "reason", HintsGranted.Reason.init(utf8:)), extra: d.extra))
        case .progressReset:
            return .progressReset(ProgressReset(
                scope: try f.enumeration(d[0], "scope", ProgressReset.Scope.init(utf8:)), extra: d.extra))
        }
    }

    private func puzzle(_ d: DataCapture, _ f: FieldRules, secondsRequired: Bool) throws(EventError) -> PuzzlePlayed {
        let puzzle = try f.string(d[0], "puzzle")
        let encoding = try f.string(d[1], "encoding")
        var seconds: Seconds? = nil
        let c = d[2]
        if secondsRequired, c.kind == .absent { throw f.error("seconds", "is required") }
        if secondsRequired ? c.kind != .absent : c.isPresent {
            guard c.kind == .number else { throw f.error("seconds", "must be a number > 0, not \(c.kind.name)") }
            let literal = s.text(c)
            guard let value = Seconds(literal: literal) else {
                throw f.error("seconds", "must be a number > 0 (got \(literal.prefixForMessage))")
            }
            seconds = value
        }
        return PuzzlePlayed(puzzle: puzzle, encoding: encoding, seconds: seconds, extra: d.extra)
    }

    private func submission(_ d: DataCapture, _ f: FieldRules) throws(EventError) -> SubmissionMade {
        let content = try f.string(d[0], "content")
        let kind = try f.enumeration(d[1], "kind", SubmissionMade.Kind.init(utf8:))
        let category = try f.string(d[2], "category")
        let diagnostic = try f.optionalBool(d[3], "diagnostic")
        let seconds = try f.optionalInteger(d[4], .seconds)
        let list = d[5]
        guard list.kind != .absent else { throw f.error("answers", "is required") }
        guard list.kind == .array else { throw f.error("answers", "must be an array, not \(list.kind.name)") }
        var answers: [SubmissionMade.Answer] = []
        answers.reserveCapacity(d.answers.count)
        var questions: Set<String>? = nil
        for (index, item) in d.answers.enumerated() {
            guard item.kind == .object else {
                throw EventError(.invalidData, member: "data.answers[\(index)]", "must be an object, not \(item.kind.name)")
            }
            let a = FieldRules(s, .answer(index), materialize: materializeData)
            // The questions are compared below (distinct): always made, even when checking only.
            let q = FieldRules(s, .answer(index))
            let answer = SubmissionMade.Answer(
                question: try q.string(item.members.slots[0], "question"), choice: try a.integer(item.members.slots[1], .choice),
                correct: try a.bool(item.members.slots[2], "correct"), skill: try a.optionalString(item.members.slots[3], "skill"),
                extra: item.members.extra)
            answers.append(answer)
            guard !SubmissionMade.Answer.repeats(answers, at: index, seen: &questions) else {
                throw a.error("question", "must be distinct within a submission (\"\(answer.question.prefixForMessage)\" repeats)")
            }
        }
        return SubmissionMade(content: content, kind: kind, category: category, diagnostic: diagnostic,
                              seconds: seconds, answers: answers, extra: d.extra)
    }
}
