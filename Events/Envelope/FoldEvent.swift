/// One event as the compact folds of every learner read it (the report, the
/// leaderboard): its `seq`, type and day, its `user`, and of its `data` only
/// what those folds count, its ids as bytes (compared exactly, never as
/// `String`s).
///
/// A reader makes it on the thread that checks the line: from the second
/// stage's captures of a writer's line (`LineCodec.checkFoldEvent`, no
/// string made) or from a decoded ``Envelope`` (``make(_:)``,
/// ``init(_:user:)``): the same values either way. It is plain memory (its
/// text inline up to 64 bytes; a reference only for longer text and for the
/// few types read whole), so it moves from thread to thread without a
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
    /// `progress.reset`, a `submission.made`, a `streak.freeze_granted`, a
    /// `streak.paused` (nil for the others).
    private var whole: Whole?
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

    private final class Whole: Sendable {
        let event: Event
        init(_ event: Event) { self.event = event }
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
        switch e.event {
        case .quizStarted(let s):
            append(s.attempt, as: 1)
            questions = s.questions
            daily = s.isDaily
        case .answerSelected(let a):
            append(a.attempt, as: 1)
            append(a.question, as: 2)
            correct = a.correct
            if let skill = a.skill {
                append(skill, as: 3)
                hasSkill = true
            }
        case .hintUsed(let h):
            append(h.attempt, as: 1)
        case .quizFinished(let end), .quizAbandoned(let end):
            append(end.attempt, as: 1)
        case .progressReset, .submissionMade, .streakFreezeGranted, .streakPaused:
            whole = Whole(e.event)
        case .puzzleCompleted, .puzzleFailed, .hintsGranted:
            break
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

    /// Marks `skill` as given (its bytes appended as part 3).
    mutating func setSkill(_ bytes: UnsafeRawBufferPointer) {
        append(bytes, as: 3)
        hasSkill = true
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
        return View(seq: seq, type: type, day: day, questions: questions, daily: daily, correct: correct, payload: whole?.event,
                    user: part(0, ends.0), attempt: part(ends.0, ends.1), question: part(ends.1, ends.2),
                    skill: hasSkill ? part(ends.2, ends.3) : nil)
    }

    /// A ``FoldEvent`` with its text as bytes (valid only inside ``withView(_:)``).
    package struct View {
        /// The event's `seq`.
        package let seq: Int
        /// Its type.
        package let type: EventType
        /// Its day.
        package let day: Day
        /// `quiz.started`'s `questions`.
        package let questions: Int
        /// `quiz.started`'s `daily`.
        package let daily: Bool
        /// `answer.selected`'s `correct`.
        package let correct: Bool
        /// The event itself, for a `progress.reset`, a `submission.made`, a `streak.freeze_granted` or a `streak.paused`.
        package let payload: Event?
        /// `user`'s UTF-8 bytes.
        package let user: UnsafeRawBufferPointer
        /// The attempt's id (a quiz event's; empty for other types).
        package let attempt: UnsafeRawBufferPointer
        /// `answer.selected`'s `question` (empty for other types).
        package let question: UnsafeRawBufferPointer
        /// `answer.selected`'s `skill`, nil when not given.
        package let skill: UnsafeRawBufferPointer?
    }
}
