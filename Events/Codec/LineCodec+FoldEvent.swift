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
        let (decoder, e, writers) = try LineDecoder.scan(line, materialize: false, data: true, writersWalk: true)
        if writers, let checked = try decoder.writersKeys(e), let user = checked.keys.user,
           let event = RecordKeys.withBytes(user, in: line, { FoldEvent.View(checked, in: line, user: $0) }) {
            return (checked.keys, event)
        }
        let (keys, record) = try decoder.keyed(e)
        guard case .event(let envelope) = record, let user = keys.user else { return (keys, nil) }
        return (keys, RecordKeys.withBytes(user, in: line) { FoldEvent.View(owning: envelope, user: $0) })
    }
}

extension FoldEvent.View {
    /// The event of a writer's line checked by the second stage, read from
    /// its captures (strings without escapes: their bytes are their values,
    /// and the view's ids are those bytes of `line`); nil for the types a
    /// fold reads whole (a reset, a freeze grant: those lines are decoded)
    /// and when `user` is not bytes of `line`.
    init?(_ w: WritersLine, in line: UnsafeRawBufferPointer, user: UnsafeRawBufferPointer) {
        guard let base = line.baseAddress, let at = user.baseAddress, at >= base, at + user.count <= base + line.count else { return nil }
        self.init(seq: w.keys.seq, type: w.type, day: w.at.day, user: user)
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
        case .puzzleCompleted, .puzzleFailed, .hintsGranted:
            break
        case .progressReset, .submissionMade, .streakFreezeGranted, .streakPaused:
            return nil
        }
    }
}
