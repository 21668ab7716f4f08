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
        // The second stage's rules and keys as `writersKeys` makes them, without its
        // `WritersLine` (whose keys were copied out and the rest destroyed, ~280
        // instructions a line): the view reads `data`'s captures where the walk left them.
        if let type = e.data.type, !FoldEvent.View.readsWhole(type), let (seq, at, checked) = try decoder.writersRules(&e, spilled) {
            let keys = decoder.keys(e, seq: seq, isNewer: false)
            if case .bytes(let user)? = keys.user,
               let event = FoldEvent.View(checked, seq: seq, day: at.day, data: &e.data.members.slots, spilled, in: line,
                                          user: UnsafeRawBufferPointer(rebasing: line[user])) {
                spilled.drop()
                return (keys, event)
            }
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
    /// The event of a writer's line checked by the second stage (its
    /// ``LineDecoder/writersRules(_:_:)``: `type`, `seq` and `at`'s `day`),
    /// read from `data`'s captures (strings without escapes: their bytes are
    /// their values, and the view's ids are those bytes of `line`; `data` is
    /// only read, passed by address); nil for the types a fold reads whole
    /// (a reset, a freeze grant: those lines are decoded) and when `user` is
    /// not bytes of `line`. A `submission.made` holds its answers' captures
    /// (`spilled`'s items, as the second stage checked them), read by
    /// ``forEachAnswer(_:)`` in `line`. The captures are read by
    /// ``WritersLine``'s accessors.
    @inline(__always)
    init?(_ type: EventType, seq: Int, day: Day, data: inout Slots, _ spilled: borrowing Spilled, in line: UnsafeRawBufferPointer,
          user: UnsafeRawBufferPointer) {
        guard let base = line.baseAddress, let at = user.baseAddress, at >= base, at + user.count <= base + line.count else { return nil }
        let answers = type == .submissionMade ? FoldEvent.Held(answers: spilled.items, in: base) : nil
        self.init(seq: seq, type: type, day: day, user: user, held: answers)
        @inline(__always) func bytes<M: PayloadMember>(_ m: M) -> UnsafeRawBufferPointer? { WritersLine.string(data[m.slot], in: base) }
        @inline(__always) func bool<M: PayloadMember>(_ m: M) -> Bool? { WritersLine.bool(data[m.slot]) }
        switch type {
        case .quizStarted:
            guard let attempt = bytes(QuizStarted.Member.attempt),
                  let questions = WritersLine.integer(data[QuizStarted.Member.questions.slot], in: line) else { return nil }
            self.attempt = attempt
            self.questions = questions
            daily = bool(QuizStarted.Member.daily) ?? false
        case .answerSelected:
            guard let attempt = bytes(AnswerSelected.Member.attempt),
                  let question = bytes(AnswerSelected.Member.question),
                  let correct = bool(AnswerSelected.Member.correct) else { return nil }
            self.attempt = attempt
            self.question = question
            self.correct = correct
            skill = bytes(AnswerSelected.Member.skill)
        case .hintUsed:
            guard let attempt = bytes(HintUsed.Member.attempt) else { return nil }
            self.attempt = attempt
        case .quizFinished, .quizAbandoned:
            guard let attempt = bytes(AttemptEnded.Member.attempt) else { return nil }
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
