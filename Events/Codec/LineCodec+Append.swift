extension LineCodec {
    /// The line of `event` as it would be the first line of a log (`seq` 1,
    /// `prev` 64 zeros), checked exactly as ``decodeRecord(_:)-(UnsafeRawBufferPointer)``
    /// checks that line: the writer's validation of an event to append. The
    /// line is kept, to be given its real `seq` and `prev` later
    /// (``PendingLine``) without encoding the event again.
    ///
    /// The outcome is that of encoding the line and decoding it (the same
    /// error: kind, member, rule, offset), but an event whose values plainly
    /// keep every rule is not decoded: its typed values are checked directly
    /// (``AppendCheck``). Anything else (extra members, a value breaking a
    /// rule) is decoded, so every error still comes from the decoder.
    package static func encodeChecked(_ event: NewEvent, id: String) throws(EventError) -> PendingLine {
        let line = encode(event.sealed(seq: 1, id: id, prev: Envelope.genesis))
        if !(line.count <= maxLineLength && AppendCheck.isPlainlyValid(event, id: id)) {
            _ = try decodeRecord(line)
        }
        guard let pending = PendingLine(line) else {
            // Both encoders write `seq` second and `prev` last (the tests check it on random events).
            throw EventError(.invalidEnvelope, "the line was not encoded with seq second and prev last; nothing was written")
        }
        return pending
    }
}

/// The format's rules on the typed values of an event to append, for events
/// that plainly keep them: `true` only when decoding the event's line would
/// accept it. It never explains a `false` (the decoder does).
///
/// It states no rule of its own: each check is the decoder's rule function
/// (``TextRule``, ``DataMember/minimum``, `LineDecoder.isValidID`,
/// `Timestamp.parse`, the JSON number grammar of `JSONScanner`, `Seconds`,
/// distinct questions) applied to a typed value. What the types already
/// guarantee (a `Bool`, an enumeration, a present required member) needs no
/// check. Members the format does not define (`extra`) could clash with the
/// defined ones, so an event with any is left to the decoder.
enum AppendCheck {
    static func isPlainlyValid(_ e: NewEvent, id: String) -> Bool {
        let text = TextRule.text
        guard validID(id), validTimestamp(e.at.text), TextRule.name.keeps(e.user) else { return false }
        if let device = e.device, !TextRule.name.keeps(device) { return false }
        @inline(__always) func optional(_ s: String?) -> Bool { s.map(text.keeps) ?? true }
        @inline(__always) func count(_ n: Int?, _ m: DataMember) -> Bool { (n ?? m.minimum) >= m.minimum }
        switch e.event {
        case .quizStarted(let d):
            return d.extra.isEmpty && text.keeps(d.attempt) && text.keeps(d.quiz) && count(d.questions, .questions)
                && optional(d.title) && optional(d.category) && optional(d.difficulty)
        case .answerSelected(let d):
            return d.extra.isEmpty && text.keeps(d.attempt) && text.keeps(d.question) && count(d.choice, .choice)
                && count(d.correctChoice, .correctChoice) && optional(d.skill) && count(d.ms, .ms)
        case .hintUsed(let d):
            return d.extra.isEmpty && text.keeps(d.attempt) && text.keeps(d.question)
        case .quizFinished(let d), .quizAbandoned(let d):
            return d.extra.isEmpty && text.keeps(d.attempt)
        case .puzzleCompleted(let d), .puzzleFailed(let d):
            if case .puzzleCompleted = e.event, d.seconds == nil { return false }
            return d.extra.isEmpty && text.keeps(d.puzzle) && text.keeps(d.encoding) && (d.seconds.map(validSeconds) ?? true)
        case .submissionMade(let d):
            guard d.extra.isEmpty, text.keeps(d.content), text.keeps(d.category), count(d.seconds, .seconds) else { return false }
            var seen: Set<String>? = nil
            for (k, a) in d.answers.enumerated() {
                guard a.extra.isEmpty, text.keeps(a.question), count(a.choice, .choice), optional(a.skill),
                      !SubmissionMade.Answer.repeats(d.answers, at: k, seen: &seen) else { return false }
            }
            return true
        case .hintsGranted(let d):
            return d.extra.isEmpty && count(d.amount, .amount)
        case .progressReset(let d):
            return d.extra.isEmpty
        }
    }

    /// The decoder's `id` rule.
    static func validID(_ id: String) -> Bool {
        id.utf8.withContiguousStorageIfAvailable { LineDecoder.isValidID(UnsafeRawBufferPointer($0)) }
            ?? Array(id.utf8).withUnsafeBytes { LineDecoder.isValidID($0) }
    }

    /// The decoder's `at` rule.
    static func validTimestamp(_ text: String) -> Bool {
        let parsed = text.utf8.withContiguousStorageIfAvailable { Timestamp.parse(UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes { Timestamp.parse($0) }
        if case .success = parsed { return true }
        return false
    }

    /// The decoder's `seconds` rule: a JSON number (as the scanner reads it) that makes a `Seconds`.
    static func validSeconds(_ s: Seconds) -> Bool {
        var literal = s.literal
        return literal.withUTF8 { JSONScanner.isNumber(UnsafeRawBufferPointer($0)) } && Seconds(literal: s.literal) != nil
    }
}
