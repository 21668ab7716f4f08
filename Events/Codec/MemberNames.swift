/// The member names and enumeration values the decoder knows, matched as bytes.
///
/// Matching the unescaped UTF-8 bytes is exactly `String` equality here: a
/// string canonically equivalent to an ASCII one differs from it only by
/// U+212A, U+037E or U+1FEF (which stand for `K`, `;` and `` ` ``), and no name
/// or value of the format holds those characters.

/// The bytes of a name, to match against the known ones.
protocol NameBytes {
    var count: Int { get }
    subscript(_ k: Int) -> UInt8 { get }
    /// Whether the bytes are exactly `text`'s UTF-8.
    func equals(_ text: StaticString) -> Bool
}

extension UnsafeRawBufferPointer: NameBytes {
    /// Whether these bytes are exactly `text`'s UTF-8.
    @inline(__always) func equals(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard count == n else { return false }
        let p = text.utf8Start
        for k in 0..<n where self[k] != p[k] { return false }
        return true
    }
}

/// A string's content in the line, where the bytes after it may be read too:
/// names are compared eight bytes at a time.
struct LineSlice: NameBytes {
    let line: UnsafeRawBufferPointer
    let start: Int
    let count: Int

    @inline(__always) subscript(_ k: Int) -> UInt8 { line[start &+ k] }

    @inline(__always) func equals(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard count == n else { return false }
        let p = text.utf8Start
        let readable = line.count &- start
        if n <= 8, readable >= 8 {
            let mask: UInt64 = n == 8 ? ~0 : (1 &<< UInt64(8 &* n)) &- 1
            return word(0) & mask == LineSlice.word(p, n)
        }
        if n <= 16, readable >= 16 {
            let mask: UInt64 = n == 16 ? ~0 : (1 &<< UInt64(8 &* (n &- 8))) &- 1
            return word(0) == LineSlice.word(p, 8) && word(8) & mask == LineSlice.word(p + 8, n &- 8)
        }
        for k in 0..<n where self[k] != p[k] { return false }
        return true
    }

    @inline(__always) private func word(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: line.loadUnaligned(fromByteOffset: start &+ offset, as: UInt64.self))
    }

    /// The first `min(n, 8)` bytes at `p` as a little-endian word (constant for a literal).
    @inline(__always) private static func word(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var w: UInt64 = 0
        for k in 0..<min(n, 8) { w |= UInt64(p[k]) &<< UInt64(8 &* k) }
        return w
    }
}

extension JSONScanner {
    /// Matches a name capture on its unescaped bytes: `match` in the line, or
    /// (with escapes) `slow` on the unescaped copy.
    @inline(__always) func identify<T>(_ c: Capture, _ match: (LineSlice) -> T?, _ slow: (UnsafeRawBufferPointer) -> T?) -> T? {
        guard c.flag else { return match(LineSlice(line: bytes, start: c.start, count: c.end - c.start)) }
        return unescapedBytes(c).withUnsafeBytes(slow)
    }
}

/// The members of the envelope, in the format's order.
enum EnvelopeMember: Int {
    case v, seq, id, at, user, device, type, data, prev

    // Each case compares with its own literal, so the comparison is with constants.
    @inline(__always) init?<B: NameBytes>(_ b: B) {
        let m: EnvelopeMember?
        switch b.count {
        case 1: m = b.equals("v") ? .v : nil
        case 2: m = b.equals("id") ? .id : b.equals("at") ? .at : nil
        case 3: m = b.equals("seq") ? .seq : nil
        case 4:
            switch b[0] {
            case UInt8(ascii: "u"): m = b.equals("user") ? .user : nil
            case UInt8(ascii: "t"): m = b.equals("type") ? .type : nil
            case UInt8(ascii: "d"): m = b.equals("data") ? .data : nil
            default: m = b.equals("prev") ? .prev : nil
            }
        case 6: m = b.equals("device") ? .device : nil
        default: m = nil
        }
        guard let m else { return nil }
        self = m
    }

    var name: String { WriterOrder.envelope[rawValue].name }
}

/// Every member name `data` (or a submission's answer) can have, over all types.
enum DataMember: String, CaseIterable {
    case attempt, quiz, questions, daily, title, category, difficulty, diagnostic
    case question, choice, correct, correctChoice = "correct_choice", skill, ms
    case hint, puzzle, encoding, seconds, content, kind, answers, amount, reason, scope

    // Each case compares with its own literal, so the comparison is with constants.
    @inline(__always) init?<B: NameBytes>(_ b: B) {
        guard b.count >= 2 else { return nil }
        let m: DataMember?
        switch (b.count, b[0]) {
        case (2, UInt8(ascii: "m")): m = b.equals("ms") ? .ms : nil
        case (4, UInt8(ascii: "q")): m = b.equals("quiz") ? .quiz : nil
        case (4, UInt8(ascii: "h")): m = b.equals("hint") ? .hint : nil
        case (4, UInt8(ascii: "k")): m = b.equals("kind") ? .kind : nil
        case (5, UInt8(ascii: "d")): m = b.equals("daily") ? .daily : nil
        case (5, UInt8(ascii: "t")): m = b.equals("title") ? .title : nil
        case (5, UInt8(ascii: "s")): m = b.equals("skill") ? .skill : b.equals("scope") ? .scope : nil
        case (6, UInt8(ascii: "c")): m = b.equals("choice") ? .choice : nil
        case (6, UInt8(ascii: "a")): m = b.equals("amount") ? .amount : nil
        case (6, UInt8(ascii: "r")): m = b.equals("reason") ? .reason : nil
        case (6, UInt8(ascii: "p")): m = b.equals("puzzle") ? .puzzle : nil
        case (7, UInt8(ascii: "a")): m = b.equals("attempt") ? .attempt : b.equals("answers") ? .answers : nil
        case (7, UInt8(ascii: "c")): m = b.equals("correct") ? .correct : b.equals("content") ? .content : nil
        case (7, UInt8(ascii: "s")): m = b.equals("seconds") ? .seconds : nil
        case (8, UInt8(ascii: "q")): m = b.equals("question") ? .question : nil
        case (8, UInt8(ascii: "c")): m = b.equals("category") ? .category : nil
        case (8, UInt8(ascii: "e")): m = b.equals("encoding") ? .encoding : nil
        case (9, UInt8(ascii: "q")): m = b.equals("questions") ? .questions : nil
        case (10, UInt8(ascii: "d")): m = b.equals("difficulty") ? .difficulty : b.equals("diagnostic") ? .diagnostic : nil
        case (14, UInt8(ascii: "c")): m = b.equals("correct_choice") ? .correctChoice : nil
        default: m = nil
        }
        guard let m else { return nil }
        self = m
    }

    /// Where `type`'s decoder keeps this member (the order its rules are checked in); nil if `type` has no such member.

    /// Each type's `data` members in the format's order (events-v1.md),
    /// indexed like `EventType.allCases`: a member's slot is its place here.
    static let byType: [[DataMember]] = EventType.allCases.map { type in
        switch type {
        case .quizStarted: [.attempt, .quiz, .questions, .daily, .title, .category, .difficulty, .diagnostic]
        case .answerSelected: [.attempt, .question, .choice, .correct, .correctChoice, .skill, .ms]
        case .hintUsed: [.attempt, .question, .hint]
        case .quizFinished, .quizAbandoned: [.attempt]
        case .puzzleCompleted, .puzzleFailed: [.puzzle, .encoding, .seconds]
        case .submissionMade: [.content, .kind, .category, .diagnostic, .seconds, .answers]
        case .hintsGranted: [.amount, .reason]
        case .progressReset: [.scope]
        }
    }

    /// A submission answer's members in the format's order.
    static let answer: [DataMember] = [.question, .choice, .correct, .skill]

    /// Where `type`'s decoder keeps this member; nil if the type has no such member.
    @inline(__always) func slot(in type: EventType) -> Int? { DataMember.byType[type.index].firstIndex(of: self) }

    /// Where a submission answer's decoder keeps this member; nil if answers have no such member.
    @inline(__always) var answerSlot: Int? { DataMember.answer.firstIndex(of: self) }
}

extension EventType {
    /// The type's place in `allCases`.
    @inline(__always) var index: Int {
        switch self {
        case .quizStarted: 0
        case .answerSelected: 1
        case .hintUsed: 2
        case .quizFinished: 3
        case .quizAbandoned: 4
        case .puzzleCompleted: 5
        case .puzzleFailed: 6
        case .submissionMade: 7
        case .hintsGranted: 8
        case .progressReset: 9
        }
    }
}

extension EventType {
    /// The type whose name is exactly these bytes. (Each case compares with its own literal.)
    @inline(__always) init?<B: NameBytes>(utf8 b: B) {
        let t: EventType?
        switch b.count {
        case 9: t = b.equals("hint.used") ? .hintUsed : nil
        case 12: t = b.equals("quiz.started") ? .quizStarted : nil
        case 13:
            t = b.equals("quiz.finished") ? .quizFinished : b.equals("puzzle.failed") ? .puzzleFailed
                : b.equals("hints.granted") ? .hintsGranted : nil
        case 14: t = b.equals("quiz.abandoned") ? .quizAbandoned : b.equals("progress.reset") ? .progressReset : nil
        case 15: t = b.equals("answer.selected") ? .answerSelected : b.equals("submission.made") ? .submissionMade : nil
        case 16: t = b.equals("puzzle.completed") ? .puzzleCompleted : nil
        default: t = nil
        }
        guard let t else { return nil }
        self = t
    }
}

extension HintUsed.Kind {
    init?(utf8 b: UnsafeRawBufferPointer) {
        if b.equals("reveal") { self = .reveal } else if b.equals("fifty_fifty") { self = .fiftyFifty } else { return nil }
    }
}

extension SubmissionMade.Kind {
    init?(utf8 b: UnsafeRawBufferPointer) {
        if b.equals("lesson") { self = .lesson } else if b.equals("passage") { self = .passage } else { return nil }
    }
}

extension HintsGranted.Reason {
    init?(utf8 b: UnsafeRawBufferPointer) {
        if b.equals("seed") { self = .seed } else if b.equals("purchase") { self = .purchase }
        else if b.equals("reward") { self = .reward } else if b.equals("grant") { self = .grant } else { return nil }
    }
}

extension ProgressReset.Scope {
    init?(utf8 b: UnsafeRawBufferPointer) {
        if b.equals("all") { self = .all } else if b.equals("quizzes") { self = .quizzes }
        else if b.equals("puzzles") { self = .puzzles } else if b.equals("submissions") { self = .submissions } else { return nil }
    }
}
