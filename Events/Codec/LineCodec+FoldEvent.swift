extension LineCodec {
    /// Checks a stored line exactly as ``checkRecordKeepingData(_:)`` does
    /// (same rules, same order, same errors: the line scanned once) and
    /// returns what the chain needs and the line's ``FoldEvent`` (nil for a
    /// newer-version line, which the folds skip).
    ///
    /// A writer's line whose `data` plainly keeps its type's rules (the
    /// second stage, ``checkWritersLine(_:)``'s answer) is read from its
    /// captures without making a string or building its payload, when its
    /// type is one the event reads that way; any other line is decoded as
    /// ``checkRecordKeepingData(_:)`` decodes it (the same captures, every
    /// rule applied by the payload) and its event made from the record.
    package static func checkFoldEvent(_ line: UnsafeRawBufferPointer) throws(EventError) -> (keys: RecordKeys, event: FoldEvent?) {
        let (decoder, e, writers) = try LineDecoder.scan(line, materialize: false, data: true, writersWalk: true)
        if writers, let checked = try decoder.writersKeys(e), let user = checked.keys.user,
           let event = RecordKeys.withBytes(user, in: line, { FoldEvent(checked, in: line, user: $0) }) {
            return (checked.keys, event)
        }
        let (keys, record) = try decoder.keyed(e)
        guard case .event(let envelope) = record, let user = keys.user else { return (keys, nil) }
        return (keys, RecordKeys.withBytes(user, in: line) { FoldEvent(envelope, user: $0) })
    }
}

extension FoldEvent {
    /// The event of a writer's line checked by the second stage, read from
    /// its captures (strings without escapes: their bytes are their values);
    /// nil for the types a fold reads whole (a reset, a freeze grant: those
    /// lines are decoded).
    init?(_ w: WritersLine, in line: UnsafeRawBufferPointer, user: UnsafeRawBufferPointer) {
        self.init(seq: w.keys.seq, type: w.type, day: w.at.day)
        append(user, as: 0)
        switch w.type {
        case .quizStarted:
            guard let attempt = w.bytes(QuizStarted.Member.attempt, in: line),
                  let questions = w.integer(QuizStarted.Member.questions, in: line) else { return nil }
            append(attempt, as: 1)
            self.questions = questions
            daily = w.bool(QuizStarted.Member.daily) ?? false
        case .answerSelected:
            guard let attempt = w.bytes(AnswerSelected.Member.attempt, in: line),
                  let question = w.bytes(AnswerSelected.Member.question, in: line),
                  let correct = w.bool(AnswerSelected.Member.correct) else { return nil }
            append(attempt, as: 1)
            append(question, as: 2)
            self.correct = correct
            if let skill = w.bytes(AnswerSelected.Member.skill, in: line) { setSkill(skill) }
        case .hintUsed:
            guard let attempt = w.bytes(HintUsed.Member.attempt, in: line) else { return nil }
            append(attempt, as: 1)
        case .quizFinished, .quizAbandoned:
            guard let attempt = w.bytes(AttemptEnded.Member.attempt, in: line) else { return nil }
            append(attempt, as: 1)
        case .puzzleCompleted, .puzzleFailed, .hintsGranted:
            break
        case .progressReset, .submissionMade, .streakFreezeGranted, .streakPaused:
            return nil
        }
    }
}
