import Events

/// The flat export's rows (docs/analytics.md): every event of a known format
/// version as one flat JSON object of 38 members, with the attempt rules already applied — the
/// learner's `day`, whether the event `counted`, an ended attempt's `score`
/// and `seconds` — by `AttemptLifecycle`, the rules `state` and `report` use.
///
/// Feed it each log's records in log order (for a ledger directory, each
/// learner log in order; users are independent). Memory: each user's
/// attempts, as `state` keeps them.
public struct FlatExport: Sendable {
    private var books: [ExactString: AttemptsBook] = [:]

    /// An export that has seen nothing.
    public init() {}

    /// The row of one record and the day folder it belongs in; nil for a line
    /// of a format version this reader does not know (not exported).
    public mutating func row(_ record: Record) -> (day: Day, line: [UInt8])? {
        guard case .event(let e) = record else { return nil }
        let (verdict, day) = AttemptLifecycle.apply(e, to: &books[ExactString(e.user), default: AttemptsBook()])
        let book = books[ExactString(e.user)]
        func attempt(_ place: Int) -> Attempt? { book?.attempts[place] }
        var known: Attempt? = nil
        var counted = true
        var ended: Attempt? = nil
        switch verdict {
        case .started(let a): known = attempt(a)
        case .duplicateStart(let a): known = attempt(a); counted = false
        case .answered(let a): known = attempt(a)
        case .duplicateAnswer(let a), .afterEnd(let a): known = attempt(a); counted = false
        case .hinted(let a, let afterEnd): known = a.flatMap(attempt); counted = a != nil && !afterEnd
        case .ended(let a, _, _):
            known = attempt(a)
            ended = known
        case .unknown: counted = false
        case .other, .reset: break
        }
        return (day, Self.line(e, day: day, attempt: known, counted: counted, ended: ended))
    }

    /// The 38 members, in the documented order.
    static func line(_ e: Envelope, day: Day, attempt: Attempt?, counted: Bool, ended: Attempt?) -> [UInt8] {
        var w = JSONWriter(capacity: 768)
        var o = ObjectWriter(&w)
        func key(_ name: StaticString) { o.key(&w, name) }
        func string(_ name: StaticString, _ value: String?) { key(name); if let value { w.string(value) } else { w.raw("null") } }
        func integer(_ name: StaticString, _ value: Int?) { key(name); if let value { w.integer(value) } else { w.raw("null") } }
        func bool(_ name: StaticString, _ value: Bool?) { key(name); if let value { w.bool(value) } else { w.raw("null") } }
        func number(_ name: StaticString, _ literal: String?) { key(name); if let literal { w.literal(literal) } else { w.raw("null") } }

        let event = e.event
        // The attempt's first start, or a start's own data.
        var start: QuizStarted? = attempt?.start
        if case .quizStarted(let own) = event { start = own }
        var answer: AnswerSelected? = nil, hint: HintUsed? = nil, puzzle: PuzzlePlayed? = nil
        var submission: SubmissionMade? = nil, reset: ProgressReset? = nil, pause: StreakPaused? = nil
        var grant: (amount: Int, reason: String)? = nil
        switch event {
        case .answerSelected(let a): answer = a
        case .hintUsed(let h): hint = h
        case .puzzleCompleted(let p), .puzzleFailed(let p): puzzle = p
        case .submissionMade(let s): submission = s
        case .hintsGranted(let g): grant = (g.amount, g.reason.rawValue)
        case .streakFreezeGranted(let g): grant = (g.amount, g.reason.rawValue)
        case .progressReset(let r): reset = r
        case .streakPaused(let p): pause = p
        default: break
        }
        var seconds: String? = puzzle?.seconds?.literal ?? submission?.seconds.map(String.init)
        if let ended { seconds = ended.startedAt.instant.duration(to: e.at.instant).description }

        integer("seq", e.seq)
        string("id", e.id)
        string("user", e.user)
        string("device", e.device)
        string("type", event.type.rawValue)
        string("at", e.at.text)
        string("utc", utc(e.at))
        string("day", day.description)
        string("at_day", e.at.day.description)
        string("attempt", event.attempt)
        string("quiz", start?.quiz)
        bool("daily", start.map(\.isDaily))
        bool("diagnostic", start.map(\.isDiagnostic) ?? submission.map(\.isDiagnostic))
        string("category", start.map(\.category) ?? submission.map(\.category))
        string("difficulty", start?.difficulty)
        integer("questions", start?.questions)
        string("question", answer?.question ?? hint?.question)
        integer("choice", answer?.choice)
        integer("correct_choice", answer?.correctChoice)
        bool("correct", answer?.correct)
        string("skill", answer?.skill)
        integer("ms", answer?.ms)
        string("hint", hint?.hint.rawValue)
        bool("counted", counted)
        integer("score", ended?.score)
        number("seconds", seconds)
        string("puzzle", puzzle?.puzzle)
        string("encoding", puzzle?.encoding)
        string("content", submission?.content)
        string("kind", submission?.kind.rawValue)
        integer("answers", submission?.answers.count)
        integer("correct_answers", submission?.correctCount)
        integer("amount", grant?.amount)
        string("reason", grant?.reason)
        string("scope", reset?.scope.rawValue)
        string("paused_from", pause?.from.description)
        string("paused_to", pause?.to.description)
        string("item", answer?.item)
        o.end(&w)
        w.byte(0x0A)
        return w.bytes
    }

    /// The instant in UTC with `at`'s own fractional digits, `Z`; nil outside the years 0001-9999.
    static func utc(_ at: Timestamp) -> String? {
        let text = at.text.utf8
        var digits = 0
        if let dot = text.firstIndex(of: UInt8(ascii: ".")) {
            digits = text[text.index(after: dot)...].prefix { $0 >= 48 && $0 <= 57 }.count
        }
        let utc = Timestamp(instant: at.instant, offsetMinutes: 0, fractionDigits: digits, zulu: true)
        let year = utc.text.prefix { $0 != "-" }
        guard !utc.text.hasPrefix("-"), year.count == 4, year != "0000" else { return nil }
        return utc.text
    }
}
