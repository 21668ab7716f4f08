/// The line of an envelope: the format's member order (`v`, `seq`, `id`,
/// `at`, `user`, `device`, `type`, `data`, `prev`; each type's `data`
/// members in the order of docs/format.md, optional ones only when present,
/// then the members the format does not define, as read). The one place that
/// writes it: ``LineCodec/encode(_:)`` and, through it, ``PendingLine``.
extension JSONWriter.Cursor {
    mutating func envelope(_ e: Envelope) {
        raw(#"{"v":1,"seq":"#); integer(e.seq)
        raw(#","id":"#); string(e.id)
        raw(#","at":"#); string(e.at.text)
        raw(#","user":"#); string(e.user)
        if let device = e.device { raw(#","device":"#); string(device) }
        switch e.event {
        case .quizStarted(let d):
            raw(#","type":"quiz.started","data":{"attempt":"#); string(d.attempt)
            raw(#","quiz":"#); string(d.quiz)
            raw(#","questions":"#); integer(d.questions)
            if let v = d.daily { raw(#","daily":"#); bool(v) }
            if let v = d.title { raw(#","title":"#); string(v) }
            if let v = d.category { raw(#","category":"#); string(v) }
            if let v = d.difficulty { raw(#","difficulty":"#); string(v) }
            if let v = d.diagnostic { raw(#","diagnostic":"#); bool(v) }
            members(d.extra)
        case .answerSelected(let d):
            raw(#","type":"answer.selected","data":{"attempt":"#); string(d.attempt)
            raw(#","question":"#); string(d.question)
            raw(#","choice":"#); integer(d.choice)
            raw(#","correct":"#); bool(d.correct)
            if let v = d.correctChoice { raw(#","correct_choice":"#); integer(v) }
            if let v = d.skill { raw(#","skill":"#); string(v) }
            if let v = d.ms { raw(#","ms":"#); integer(v) }
            members(d.extra)
        case .hintUsed(let d):
            raw(#","type":"hint.used","data":{"attempt":"#); string(d.attempt)
            raw(#","question":"#); string(d.question)
            raw(#","hint":"#)
            switch d.hint {
            case .fiftyFifty: raw(#""fifty_fifty""#)
            case .reveal: raw(#""reveal""#)
            }
            members(d.extra)
        case .quizFinished(let d):
            raw(#","type":"quiz.finished","data":{"attempt":"#); string(d.attempt); members(d.extra)
        case .quizAbandoned(let d):
            raw(#","type":"quiz.abandoned","data":{"attempt":"#); string(d.attempt); members(d.extra)
        case .puzzleCompleted(let d):
            raw(#","type":"puzzle.completed","data":{"puzzle":"#); puzzle(d)
        case .puzzleFailed(let d):
            raw(#","type":"puzzle.failed","data":{"puzzle":"#); puzzle(d)
        case .submissionMade(let d):
            raw(#","type":"submission.made","data":{"content":"#); string(d.content)
            raw(#","kind":"#)
            switch d.kind {
            case .lesson: raw(#""lesson""#)
            case .passage: raw(#""passage""#)
            }
            raw(#","category":"#); string(d.category)
            if let v = d.diagnostic { raw(#","diagnostic":"#); bool(v) }
            if let v = d.seconds { raw(#","seconds":"#); integer(v) }
            raw(#","answers":["#)
            for (k, a) in d.answers.enumerated() {
                raw(k == 0 ? #"{"question":"# : #",{"question":"#); string(a.question)
                raw(#","choice":"#); integer(a.choice)
                raw(#","correct":"#); bool(a.correct)
                if let v = a.skill { raw(#","skill":"#); string(v) }
                members(a.extra)
                raw("}")
            }
            raw("]")
            members(d.extra)
        case .hintsGranted(let d):
            raw(#","type":"hints.granted","data":{"amount":"#); integer(d.amount)
            raw(#","reason":"#)
            switch d.reason {
            case .seed: raw(#""seed""#)
            case .purchase: raw(#""purchase""#)
            case .reward: raw(#""reward""#)
            case .grant: raw(#""grant""#)
            }
            members(d.extra)
        case .progressReset(let d):
            raw(#","type":"progress.reset","data":{"scope":"#)
            switch d.scope {
            case .all: raw(#""all""#)
            case .quizzes: raw(#""quizzes""#)
            case .puzzles: raw(#""puzzles""#)
            case .submissions: raw(#""submissions""#)
            }
            members(d.extra)
        }
        raw(#"},"prev":"#); string(e.prev)
        raw("}")
    }

    private mutating func puzzle(_ d: PuzzlePlayed) {
        string(d.puzzle)
        raw(#","encoding":"#); string(d.encoding)
        if let v = d.seconds {
            raw(#","seconds":"#)
            literal(v.literal)
        }
        members(d.extra)
    }
}

extension JSONWriter {
    /// Room for a line: most lines are shorter; a longer one makes the writer grow once or twice.
    static func lineCapacity(_ e: Envelope) -> Int {
        if case .submissionMade(let d) = e.event { return 512 &+ 96 &* d.answers.count }
        return 512
    }
}
