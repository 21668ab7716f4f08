/// One event as the compact folds of every learner read it (the report, the
/// leaderboard): its `seq`, type and day, its `user`, and of its `data` only
/// what those folds count, its ids as bytes (compared exactly, never as
/// `String`s).
///
/// A fold reads it as a ``View``. The report's read of a log makes the view
/// itself on the thread that checks the line, without a `FoldEvent`: from
/// the second stage's captures of a writer's line (`LineCodec.checkFoldEvent`,
/// no string made, the ids where they are in the line) or, for any other
/// line, from its decoded ``Envelope`` (``View/init(owning:user:)``). A
/// `FoldEvent` is made from an ``Envelope`` (``make(_:)``, ``init(_:user:)``)
/// by the readers of records (several logs, the leaderboard): plain memory
/// (its text inline up to 64 bytes; a reference only for longer text and for
/// the few types read whole), so it moves from thread to thread without a
/// retain or a release.
package struct FoldEvent: Sendable {
    /// The event's `seq`.
    package let seq: Int
    /// Its type.
    package let type: EventType
    /// Its day (`at`'s, in its own offset).
    package let day: Day
    /// `quiz.started`'s `questions` (0 for other types).
    package var questions = 0
    /// `quiz.started`'s `daily`, false when not written.
    package var daily = false
    /// `answer.selected`'s `correct`.
    package var correct = false
    /// The event itself, for the types the compact folds read whole: a
    /// `progress.reset`, a `submission.made`, a `streak.freeze_granted` or a
    /// `streak.paused` (nil for the others).
    private var whole: Held?
    /// Where `user`, `attempt`, `question` and `skill` end in the text (each starts where the one before ends).
    private var ends: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    /// Whether `skill` was given.
    private var hasSkill = false
    /// The text while it fits.
    private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// The text once it does not fit inline (nil until then).
    private var overflow: [UInt8]?
    /// The text's length.
    private var count = 0

    /// What a fold event or a view holds on the heap: the event read whole
    /// (for the types the folds read whole), and for a view made from a
    /// decoded envelope, its text (never moved or changed until released).
    final class Held: @unchecked Sendable {
        /// The event, for the types the folds read whole.
        let event: Event?
        /// The text a view's ids point into (empty for a fold event's).
        private let text: UnsafeMutableRawBufferPointer
        /// A `submission.made` read in place (``View/init(_:_:in:user:)``):
        /// its answers' captures, as the second stage checked them, and the
        /// line they are read in (valid while the line is); empty and nil otherwise.
        let answers: [ItemCapture]
        let line: UnsafeRawPointer?

        init(_ event: Event?, text: [UInt8] = []) {
            self.event = event
            answers = []
            line = nil
            if text.isEmpty {
                self.text = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            } else {
                let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: text.count, alignment: 8)
                text.withUnsafeBytes { copy.copyMemory(from: $0) }
                self.text = copy
            }
        }

        /// A submission's answers read where they are in `line` (``View/init(_:_:in:user:)``).
        init(answers: [ItemCapture], in line: UnsafeRawPointer) {
            event = nil
            text = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            self.answers = answers
            self.line = line
        }

        deinit { text.baseAddress?.deallocate() }

        /// The text's bytes (valid while this is alive: they never move).
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(text) }
    }

    /// An event without text yet; `user`, then `attempt`, `question` and `skill` are appended in that order.
    init(seq: Int, type: EventType, day: Day) {
        self.seq = seq; self.type = type; self.day = day
    }

    /// The event of `e`, whose user's UTF-8 bytes are `user` (a reader that
    /// made the envelope without its strings has them from the line).
    package init(_ e: Envelope, user: UnsafeRawBufferPointer) {
        self.init(seq: e.seq, type: e.event.type, day: e.day)
        append(user, as: 0)
        let read = Parts(e)
        if let attempt = read.attempt { append(attempt, as: 1) }
        if let question = read.question { append(question, as: 2) }
        if let skill = read.skill { append(skill, as: 3); hasSkill = true }
        (questions, daily, correct) = (read.questions, read.daily, read.correct)
        if read.whole { whole = Held(e.event) }
    }

    /// What the folds read of an envelope's `data`: one place for the
    /// event made from a record and the view made from a decoded line.
    private struct Parts {
        var attempt: String?, question: String?, skill: String?
        var questions = 0, daily = false, correct = false
        /// Whether the folds read the event whole.
        var whole = false

        init(_ e: Envelope) {
            switch e.event {
            case .quizStarted(let s):
                attempt = s.attempt
                questions = s.questions
                daily = s.isDaily
            case .answerSelected(let a):
                attempt = a.attempt
                question = a.question
                correct = a.correct
                skill = a.skill
            case .hintUsed(let h):
                attempt = h.attempt
            case .quizFinished(let end), .quizAbandoned(let end):
                attempt = end.attempt
            case .progressReset, .submissionMade, .streakFreezeGranted, .streakPaused:
                whole = true
            case .puzzleCompleted, .puzzleFailed, .hintsGranted:
                break
            }
        }
    }

    /// The event of `e` (its `user` made).
    package static func make(_ e: Envelope) -> FoldEvent {
        var user = e.user
        return user.withUTF8 { FoldEvent(e, user: UnsafeRawBufferPointer($0)) }
    }

    /// Sets part `k` (0 user, 1 attempt, 2 question, 3 skill) to `bytes`; the parts before it are set.
    mutating func append(_ bytes: UnsafeRawBufferPointer, as k: Int) {
        let n = count, m = bytes.count
        if m == 0 {
            // nothing to copy
        } else if overflow == nil, n + m <= MemoryLayout.size(ofValue: inline) {
            withUnsafeMutableBytes(of: &inline) { UnsafeMutableRawBufferPointer(rebasing: $0[n..<(n + m)]).copyMemory(from: bytes) }
        } else {
            var text = overflow ?? withUnsafeBytes(of: inline) { Array($0[0..<n]) }
            text.append(contentsOf: bytes)
            overflow = text
        }
        count = n + m
        let end = Int32(truncatingIfNeeded: count)
        switch k {
        case 0: ends = (end, end, end, end)
        case 1: ends = (ends.0, end, end, end)
        case 2: ends = (ends.0, ends.1, end, end)
        default: ends.3 = end
        }
    }

    private mutating func append(_ string: String, as k: Int) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0), as: k) }
    }

    /// The event with its text as bytes, valid inside `body`.
    package func withView<R>(_ body: (View) -> R) -> R {
        if let overflow { return overflow.withUnsafeBytes { body(view($0)) } }
        return withUnsafeBytes(of: inline) { body(view($0)) }
    }

    private func view(_ text: UnsafeRawBufferPointer) -> View {
        @inline(__always) func part(_ from: Int32, _ to: Int32) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: text[Int(from)..<Int(to)])
        }
        var v = View(seq: seq, type: type, day: day, user: part(0, ends.0), held: whole)
        (v.questions, v.daily, v.correct) = (questions, daily, correct)
        v.attempt = part(ends.0, ends.1)
        v.question = part(ends.1, ends.2)
        if hasSkill { v.skill = part(ends.2, ends.3) }
        return v
    }

    /// A fold's event with its ids as bytes: in a ``FoldEvent``'s text
    /// (``FoldEvent/withView(_:)``), in the line it was read from (the
    /// report's read: valid while that line is, which is for the call it is
    /// handed to), or in text it holds itself (``init(owning:user:)``).
    package struct View {
        /// The event's `seq`.
        package let seq: Int
        /// Its type.
        package let type: EventType
        /// Its day.
        package let day: Day
        /// `quiz.started`'s `questions`.
        package var questions = 0
        /// `quiz.started`'s `daily`.
        package var daily = false
        /// `answer.selected`'s `correct`.
        package var correct = false
        /// `user`'s UTF-8 bytes.
        package let user: UnsafeRawBufferPointer
        /// The attempt's id (a quiz event's; empty for other types).
        package var attempt = UnsafeRawBufferPointer(start: nil, count: 0)
        /// `answer.selected`'s `question` (empty for other types).
        package var question = UnsafeRawBufferPointer(start: nil, count: 0)
        /// `answer.selected`'s `skill`, nil when not given.
        package var skill: UnsafeRawBufferPointer?
        /// The event read whole, and the text the ids point into when the view holds it.
        private let held: Held?

        /// The event itself, for a `progress.reset`, a `streak.freeze_granted`
        /// or a `streak.paused`, and for a `submission.made` decoded whole (nil
        /// for one read in place: its answers are read by ``forEachAnswer(_:)``).
        package var payload: Event? { held?.event }

        /// Calls `body` with each answer of a `submission.made`, in order:
        /// whether it is right, and its `skill`'s UTF-8 bytes (nil when not
        /// given). From the answers' captures in the line for a submission
        /// read in place (the values the second stage checked: strings
        /// without escapes, whose bytes are their UTF-8), else from the
        /// event read whole; nothing for other types.
        package func forEachAnswer(_ body: (_ correct: Bool, _ skill: UnsafeRawBufferPointer?) -> Void) {
            guard let held else { return }
            if let line = held.line {
                WritersLine.forEachItem(held.answers, in: line) { item in
                    body(item.bool(SubmissionMade.Answer.Member.correct) ?? false, item.bytes(SubmissionMade.Answer.Member.skill))
                }
            } else if case .submissionMade(let s)? = held.event {
                for a in s.answers {
                    if var skill = a.skill {
                        skill.withUTF8 { body(a.correct, UnsafeRawBufferPointer($0)) }
                    } else {
                        body(a.correct, nil)
                    }
                }
            }
        }

        /// A view of an event whose ids are set after (in memory that outlives it).
        init(seq: Int, type: EventType, day: Day, user: UnsafeRawBufferPointer, held: Held? = nil) {
            self.seq = seq; self.type = type; self.day = day; self.user = user; self.held = held
        }

        /// The view of `e`, whose user's UTF-8 bytes are `user`, holding its
        /// own copy of its text (and the event, for the types read whole):
        /// valid wherever it goes, as the ``FoldEvent`` of `e` would be.
        package init(owning e: Envelope, user: UnsafeRawBufferPointer) {
            let read = Parts(e)
            var text = Array(user)
            var ends = [text.count]
            for part in [read.attempt, read.question, read.skill] {
                if let part { text.append(contentsOf: part.utf8) }
                ends.append(text.count)
            }
            let held = Held(read.whole ? e.event : nil, text: text)
            let bytes = held.bytes
            @inline(__always) func part(_ k: Int) -> UnsafeRawBufferPointer {
                UnsafeRawBufferPointer(rebasing: bytes[(k == 0 ? 0 : ends[k - 1])..<ends[k]])
            }
            self.init(seq: e.seq, type: e.event.type, day: e.day, user: part(0), held: held)
            (questions, daily, correct) = (read.questions, read.daily, read.correct)
            attempt = part(1)
            question = part(2)
            if read.skill != nil { skill = part(3) }
        }
    }
}
