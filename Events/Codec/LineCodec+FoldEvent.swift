extension LineCodec {
    /// Checks a stored line exactly as ``checkRecordKeepingData(_:)`` does
    /// (same rules, same order, same errors: the line scanned once) and
    /// returns what the chain needs and the line's ``FoldEvent/View`` (nil
    /// for a newer-version line, which the folds skip).
    ///
    /// A writer's line whose `data` plainly keeps its type's rules (the
    /// second stage, ``checkWritersLine(_:)``'s answer) is read from its
    /// captures without making a string or building its payload, when its
    /// type is one the event reads that way: its ids are then bytes of
    /// `line`, so the view is valid only while `line` is. Any other line is
    /// decoded as ``checkRecordKeepingData(_:)`` decodes it (the same
    /// captures, every rule applied by the payload) and its view made from
    /// the record, holding its own text.
    package static func checkFoldEvent(_ line: UnsafeRawBufferPointer) throws(EventError) -> (keys: RecordKeys, event: FoldEvent.View?) {
        // As `LineDecoder.keys(_:writersWalk:)` reads a line (verify's check):
        // the writer's walk and the second stage in place, no copy of the
        // captures; `data`'s strings are made only for a line decoded whole.
        if let problem = LineChecks.lengthProblem(line) { throw problem }
        var decoder = LineDecoder(line)
        decoder.materialize = false
        decoder.materializeData = false
        var e = LineDecoder.EnvelopeCapture()
        var spilled = Spilled()
        guard decoder.scanWritersLine(into: &e, spilled: &spilled) else { return try generalFoldEvent(line) }
        // A type the fold reads whole skips the second stage (its payload is built below in any case);
        // a submission's answers are read from their captures, which the second stage checked.
        // The view's user is bytes of the line (an escaped one, `.text`, is decoded below):
        // read in place, not through a closure (which copied the answer and its keys).
        if let type = e.data.type, !FoldEvent.View.readsWhole(type), let checked = try decoder.writersKeys(&e, spilled),
           case .bytes(let user)? = checked.keys.user,
           let event = FoldEvent.View(checked, spilled, in: line, user: UnsafeRawBufferPointer(rebasing: line[user])) {
            return (checked.keys, event)
        }
        decoder.materializeData = true
        return try ownedFoldEvent(decoder.keyed(e, spilled), in: line)
    }

    /// ``checkFoldEvent(_:)`` of a line the writer's walk does not take: the general walk, every rule.
    @inline(never)
    private static func generalFoldEvent(_ line: UnsafeRawBufferPointer) throws(EventError) -> (keys: RecordKeys, event: FoldEvent.View?) {
        let (decoder, e, spilled, _) = try LineDecoder.scan(line, materialize: false, data: true, writersWalk: false)
        return try ownedFoldEvent(decoder.keyed(e, spilled), in: line)
    }

    /// The keys and the view, holding its own text, of a line decoded whole (nil for a newer-version line).
    @inline(never)
    private static func ownedFoldEvent(_ read: (keys: RecordKeys, record: Record), in line: UnsafeRawBufferPointer) -> (keys: RecordKeys, event: FoldEvent.View?) {
        guard case .event(let envelope) = read.record, let user = read.keys.user else { return (read.keys, nil) }
        return (read.keys, RecordKeys.withBytes(user, in: line) { FoldEvent.View(owning: envelope, user: $0) })
    }
}

extension FoldEvent.View {
    /// The event of a writer's line checked by the second stage, read from
    /// its captures (strings without escapes: their bytes are their values,
    /// and the view's ids are those bytes of `line`); nil for the types a
    /// fold reads whole (a reset, a freeze grant: those lines are decoded)
    /// and when `user` is not bytes of `line`. A `submission.made` holds its
    /// answers' captures (`spilled`'s items, as the second stage checked
    /// them), read by ``forEachAnswer(_:)`` in `line`.
    init?(_ w: WritersLine, _ spilled: Spilled, in line: UnsafeRawBufferPointer, user: UnsafeRawBufferPointer) {
        guard let base = line.baseAddress, let at = user.baseAddress, at >= base, at + user.count <= base + line.count else { return nil }
        let answers = w.type == .submissionMade ? FoldEvent.Held(answers: spilled.items, in: base) : nil
        self.init(seq: w.keys.seq, type: w.type, day: w.at.day, user: user, held: answers)
        switch w.type {
        case .quizStarted:
            guard let attempt = w.bytes(QuizStarted.Member.attempt, in: line),
                  let questions = w.integer(QuizStarted.Member.questions, in: line) else { return nil }
            self.attempt = attempt
            self.questions = questions
            daily = w.bool(QuizStarted.Member.daily) ?? false
        case .answerSelected:
            guard let attempt = w.bytes(AnswerSelected.Member.attempt, in: line),
                  let question = w.bytes(AnswerSelected.Member.question, in: line),
                  let correct = w.bool(AnswerSelected.Member.correct) else { return nil }
            self.attempt = attempt
            self.question = question
            self.correct = correct
            skill = w.bytes(AnswerSelected.Member.skill, in: line)
        case .hintUsed:
            guard let attempt = w.bytes(HintUsed.Member.attempt, in: line) else { return nil }
            self.attempt = attempt
        case .quizFinished, .quizAbandoned:
            guard let attempt = w.bytes(AttemptEnded.Member.attempt, in: line) else { return nil }
            self.attempt = attempt
        case .puzzleCompleted, .puzzleFailed, .hintsGranted, .submissionMade:
            break
        default:
            // The types the fold reads whole (``readsWhole(_:)``).
            return nil
        }
    }

    /// Whether the fold reads an event of `type` whole (decoded: ``init(_:in:user:)`` is nil for it).
    static func readsWhole(_ type: EventType) -> Bool {
        switch type {
        case .progressReset, .streakFreezeGranted, .streakPaused: true
        default: false
        }
    }
}
