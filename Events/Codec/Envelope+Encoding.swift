extension JSONWriter {
    /// Writes an envelope in the format's member order.
    ///
    /// Member names are written with their punctuation as one token
    /// (`,"id":`): the bytes are those of an ObjectWriter, in fewer appends.
    mutating func write(_ e: Envelope) {
        raw(#"{"v":1,"seq":"#); integer(e.seq)
        raw(#","id":"#); string(e.id)
        raw(#","at":"#); string(e.at.text)
        raw(#","user":"#); string(e.user)
        if let device = e.device { raw(#","device":"#); string(device) }
        raw(#","type":"#); string(e.event.type.rawValue)
        raw(#","data":"#); write(e.event)
        raw(#","prev":"#); string(e.prev)
        raw("}")
    }

    /// Writes an event's `data` object: the type's members in the format's
    /// order, optional ones only when present, then the unknown ones as written.
    mutating func write(_ event: Event) {
        let extra: [JSONMember]
        switch event {
        case .quizStarted(let e):
            raw(#"{"attempt":"#); string(e.attempt)
            raw(#","quiz":"#); string(e.quiz)
            raw(#","questions":"#); integer(e.questions)
            if let v = e.daily { raw(#","daily":"#); bool(v) }
            if let v = e.title { raw(#","title":"#); string(v) }
            if let v = e.category { raw(#","category":"#); string(v) }
            if let v = e.difficulty { raw(#","difficulty":"#); string(v) }
            if let v = e.diagnostic { raw(#","diagnostic":"#); bool(v) }
            extra = e.extra
        case .answerSelected(let e):
            raw(#"{"attempt":"#); string(e.attempt)
            raw(#","question":"#); string(e.question)
            raw(#","choice":"#); integer(e.choice)
            raw(#","correct":"#); bool(e.correct)
            if let v = e.correctChoice { raw(#","correct_choice":"#); integer(v) }
            if let v = e.skill { raw(#","skill":"#); string(v) }
            if let v = e.ms { raw(#","ms":"#); integer(v) }
            extra = e.extra
        case .hintUsed(let e):
            raw(#"{"attempt":"#); string(e.attempt)
            raw(#","question":"#); string(e.question)
            raw(#","hint":"#); string(e.hint.rawValue)
            extra = e.extra
        case .quizFinished(let e), .quizAbandoned(let e):
            raw(#"{"attempt":"#); string(e.attempt)
            extra = e.extra
        case .puzzleCompleted(let e), .puzzleFailed(let e):
            raw(#"{"puzzle":"#); string(e.puzzle)
            raw(#","encoding":"#); string(e.encoding)
            if let v = e.seconds { raw(#","seconds":"#); bytes.append(contentsOf: v.literal.utf8) }
            extra = e.extra
        case .submissionMade(let e):
            raw(#"{"content":"#); string(e.content)
            raw(#","kind":"#); string(e.kind.rawValue)
            raw(#","category":"#); string(e.category)
            if let v = e.diagnostic { raw(#","diagnostic":"#); bool(v) }
            if let v = e.seconds { raw(#","seconds":"#); integer(v) }
            raw(#","answers":["#)
            for (k, a) in e.answers.enumerated() {
                raw(k == 0 ? #"{"question":"# : #",{"question":"#); string(a.question)
                raw(#","choice":"#); integer(a.choice)
                raw(#","correct":"#); bool(a.correct)
                if let v = a.skill { raw(#","skill":"#); string(v) }
                writeExtra(a.extra)
                raw("}")
            }
            raw("]")
            extra = e.extra
        case .hintsGranted(let e):
            raw(#"{"amount":"#); integer(e.amount)
            raw(#","reason":"#); string(e.reason.rawValue)
            extra = e.extra
        case .progressReset(let e):
            raw(#"{"scope":"#); string(e.scope.rawValue)
            extra = e.extra
        }
        writeExtra(extra)
        raw("}")
    }

    /// Writes members after at least one other member of their object.
    private mutating func writeExtra(_ members: [JSONMember]) {
        for m in members {
            raw(",")
            string(m.name)
            raw(":")
            value(m.value)
        }
    }
}
