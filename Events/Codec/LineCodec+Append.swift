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
/// The rules are those of `LineDecoder` and `FieldRules`: required strings
/// not empty and at most 256 characters (`user` and `device` 128, without
/// control characters), the integers' minimums, a valid `id` and `at`,
/// distinct questions in a submission. Members the format does not define
/// (`extra`) could clash with the defined ones, so an event with any is left
/// to the decoder.
enum AppendCheck {
    static func isPlainlyValid(_ e: NewEvent, id: String) -> Bool {
        guard validID(id), validTimestamp(e.at.text), text(e.user, max: 128, noControl: true) else { return false }
        if let device = e.device, !text(device, max: 128, noControl: true) { return false }
        switch e.event {
        case .quizStarted(let d):
            return d.extra.isEmpty && text(d.attempt) && text(d.quiz) && d.questions >= 1
                && optionalText(d.title) && optionalText(d.category) && optionalText(d.difficulty)
        case .answerSelected(let d):
            return d.extra.isEmpty && text(d.attempt) && text(d.question) && d.choice >= 0
                && (d.correctChoice ?? 0) >= 0 && optionalText(d.skill) && (d.ms ?? 0) >= 0
        case .hintUsed(let d):
            return d.extra.isEmpty && text(d.attempt) && text(d.question)
        case .quizFinished(let d), .quizAbandoned(let d):
            return d.extra.isEmpty && text(d.attempt)
        case .puzzleCompleted(let d):
            guard let seconds = d.seconds else { return false }
            return d.extra.isEmpty && text(d.puzzle) && text(d.encoding) && isJSONNumber(seconds.literal)
        case .puzzleFailed(let d):
            return d.extra.isEmpty && text(d.puzzle) && text(d.encoding) && (d.seconds.map { isJSONNumber($0.literal) } ?? true)
        case .submissionMade(let d):
            guard d.extra.isEmpty, text(d.content), text(d.category), (d.seconds ?? 0) >= 0 else { return false }
            for a in d.answers {
                guard a.extra.isEmpty, text(a.question), a.choice >= 0, optionalText(a.skill) else { return false }
            }
            return distinctQuestions(d.answers)
        case .hintsGranted(let d):
            return d.extra.isEmpty && d.amount >= 1
        case .progressReset(let d):
            return d.extra.isEmpty
        }
    }

    /// Whether no two answers have the same question, compared as the decoder
    /// compares them (as `String`s).
    static func distinctQuestions(_ answers: [SubmissionMade.Answer]) -> Bool {
        if answers.count <= 16 {
            for k in answers.indices where answers[..<k].contains(where: { $0.question == answers[k].question }) {
                return false
            }
            return true
        }
        return Set(answers.map(\.question)).count == answers.count
    }

    /// 1 to 64 characters of `A-Z a-z 0-9 . _ : -`.
    static func validID(_ id: String) -> Bool {
        id.utf8.withContiguousStorageIfAvailable { LineDecoder.isValidID(UnsafeRawBufferPointer($0)) }
            ?? Array(id.utf8).withUnsafeBytes { LineDecoder.isValidID($0) }
    }

    static func validTimestamp(_ text: String) -> Bool {
        let parsed = text.utf8.withContiguousStorageIfAvailable { Timestamp.parse(UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes { Timestamp.parse($0) }
        if case .success = parsed { return true }
        return false
    }

    @inline(__always) static func optionalText(_ s: String?) -> Bool { s.map { text($0) } ?? true }

    /// Not empty, at most `max` characters (Unicode scalars), and, with
    /// `noControl`, no U+0000-U+001F or U+007F-U+009F.
    static func text(_ s: String, max: Int = 256, noControl: Bool = false) -> Bool {
        let utf8 = s.utf8
        guard !utf8.isEmpty else { return false }
        if utf8.count > max, s.unicodeScalars.count > max { return false }
        guard noControl else { return true }
        let clean = utf8.withContiguousStorageIfAvailable { u in
            // A control character's UTF-8: a byte below 0x20, 0x7F, or C2 80-C2 9F.
            for k in u.indices {
                let b = u[k]
                if b < 0x20 || b == 0x7F || (b == 0xC2 && k + 1 < u.count && u[k + 1] < 0xA0) { return false }
            }
            return true
        }
        return clean ?? !s.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Whether `literal` is a JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ literal: String) -> Bool {
        let u = Array(literal.utf8)
        var i = 0
        @inline(__always) func digit(_ k: Int) -> Bool { k < u.count && u[k] >= 48 && u[k] <= 57 }
        @inline(__always) func digits() -> Bool {
            guard digit(i) else { return false }
            while digit(i) { i += 1 }
            return true
        }
        if i < u.count, u[i] == UInt8(ascii: "-") { i += 1 }
        if i < u.count, u[i] == UInt8(ascii: "0") {
            i += 1
        } else if !digits() {
            return false
        }
        if i < u.count, u[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() else { return false }
        }
        if i < u.count, u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E") {
            i += 1
            if i < u.count, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() else { return false }
        }
        return i == u.count
    }
}
