@testable import Events

// Frozen copy of the former library code: see ReferenceLineCodec.swift.
extension ReferenceJSONWriter {
    /// Writes an envelope in the format's member order.
    mutating func write(_ e: Envelope) {
        var o = ReferenceObjectWriter(&self)
        o.key(&self, "v"); integer(Envelope.version)
        o.key(&self, "seq"); integer(e.seq)
        o.key(&self, "id"); string(e.id)
        o.key(&self, "at"); string(e.at.text)
        o.key(&self, "user"); string(e.user)
        if let device = e.device { o.key(&self, "device"); string(device) }
        o.key(&self, "type"); string(e.event.type.rawValue)
        o.key(&self, "data"); write(e.event)
        o.key(&self, "prev"); string(e.prev)
        o.end(&self)
    }

    /// Writes an event's `data` object: the type's members in the format's
    /// order, optional ones only when present, then the unknown ones as written.
    mutating func write(_ event: Event) {
        var o = ReferenceObjectWriter(&self)
        let extra: [JSONMember]
        switch event {
        case .quizStarted(let e):
            o.key(&self, "attempt"); string(e.attempt)
            o.key(&self, "quiz"); string(e.quiz)
            o.key(&self, "questions"); integer(e.questions)
            if let v = e.daily { o.key(&self, "daily"); bool(v) }
            if let v = e.title { o.key(&self, "title"); string(v) }
            if let v = e.category { o.key(&self, "category"); string(v) }
            if let v = e.difficulty { o.key(&self, "difficulty"); string(v) }
            if let v = e.diagnostic { o.key(&self, "diagnostic"); bool(v) }
            extra = e.extra
        case .answerSelected(let e):
            o.key(&self, "attempt"); string(e.attempt)
            o.key(&self, "question"); string(e.question)
            o.key(&self, "choice"); integer(e.choice)
            o.key(&self, "correct"); bool(e.correct)
            if let v = e.correctChoice { o.key(&self, "correct_choice"); integer(v) }
            if let v = e.skill { o.key(&self, "skill"); string(v) }
            if let v = e.ms { o.key(&self, "ms"); integer(v) }
            extra = e.extra
        case .hintUsed(let e):
            o.key(&self, "attempt"); string(e.attempt)
            o.key(&self, "question"); string(e.question)
            o.key(&self, "hint"); string(e.hint.rawValue)
            extra = e.extra
        case .quizFinished(let e), .quizAbandoned(let e):
            o.key(&self, "attempt"); string(e.attempt)
            extra = e.extra
        case .puzzleCompleted(let e), .puzzleFailed(let e):
            o.key(&self, "puzzle"); string(e.puzzle)
            o.key(&self, "encoding"); string(e.encoding)
            if let v = e.seconds { o.key(&self, "seconds"); bytes.append(contentsOf: v.literal.utf8) }
            extra = e.extra
        case .submissionMade(let e):
            o.key(&self, "content"); string(e.content)
            o.key(&self, "kind"); string(e.kind.rawValue)
            o.key(&self, "category"); string(e.category)
            if let v = e.diagnostic { o.key(&self, "diagnostic"); bool(v) }
            if let v = e.seconds { o.key(&self, "seconds"); integer(v) }
            o.key(&self, "answers")
            bytes.append(UInt8(ascii: "["))
            for (k, a) in e.answers.enumerated() {
                if k > 0 { bytes.append(UInt8(ascii: ",")) }
                var ao = ReferenceObjectWriter(&self)
                ao.key(&self, "question"); string(a.question)
                ao.key(&self, "choice"); integer(a.choice)
                ao.key(&self, "correct"); bool(a.correct)
                if let v = a.skill { ao.key(&self, "skill"); string(v) }
                for m in a.extra { ao.key(&self, name: m.name); value(m.value) }
                ao.end(&self)
            }
            bytes.append(UInt8(ascii: "]"))
            extra = e.extra
        case .hintsGranted(let e):
            o.key(&self, "amount"); integer(e.amount)
            o.key(&self, "reason"); string(e.reason.rawValue)
            extra = e.extra
        case .progressReset(let e):
            o.key(&self, "scope"); string(e.scope.rawValue)
            extra = e.extra
        }
        for m in extra { o.key(&self, name: m.name); value(m.value) }
        o.end(&self)
    }
}
