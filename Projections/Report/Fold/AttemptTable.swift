import Events

/// The storage for ``AttemptLifecycle`` of the report and the leaderboard:
/// every user's attempts with only what the counts read kept (the rules are
/// the lifecycle's, as for `state`'s ``AttemptsBook``).
///
/// An attempt is known from its first `quiz.started` to the end of the log,
/// under its user and exact id, with its start day (``AttemptIndex``). While
/// it runs it also keeps its question count, its score, whether it is a
/// daily quiz, the streak's reset count at its start, and the questions
/// answered. When it finishes or is abandoned that running part is handed
/// over in ``ended`` and dropped (its storage reused by the next attempt),
/// leaving the id and the day (about 40 bytes an attempt in all).
struct AttemptTable: Sendable {
    /// What an attempt kept while it ran.
    struct Running: Sendable {
        /// The `questions` of its start.
        var questions = 0
        /// Its correct first answers.
        var score = 0
        /// Whether it is a daily quiz.
        var daily = false
        /// The user's reset count when it started.
        var epoch = 0
        /// The questions answered: each a word holding its length in bytes,
        /// then its UTF-8 in words (little-endian, the last one zero-padded).
        fileprivate var answered: [UInt64] = []
        /// One bit for each question in `answered`, by its first word: a
        /// question whose bit is clear was not answered (no scan).
        fileprivate var seen: UInt64 = 0
    }

    /// Each user's `quizzes`/`all` resets so far, by user number (the
    /// lifecycle moves them on; a user without one is not in it).
    private var epochs: [Int] = []
    /// The attempt that ended last, as it was when it ended.
    private(set) var ended = Running()

    /// The attempts' ids, days and slots.
    var index = AttemptIndex()
    /// By slot.
    private var running: [Running] = []

    /// Nothing known.
    init() {}

    /// Forgets every attempt (a learner was closed), keeping the storage for the next ones.
    mutating func removeAll() {
        index.removeAll()
        epochs.removeAll(keepingCapacity: true)
        for slot in running.indices {
            running[slot].answered.removeAll(keepingCapacity: true)
            running[slot].seen = 0
        }
    }
}

extension AttemptTable: IndexedAttempts {
    typealias Input = FoldEvent.View

    mutating func find(_ id: UnsafeRawBufferPointer) -> Int? { index.find(id) }

    mutating func start(_ started: FoldStart, _ event: FoldEvent.View) -> Int {
        let (attempt, slot) = index.start(event.attempt, on: event.day)
        if slot == running.count { running.append(Running()) }
        running[slot].questions = started.questions
        running[slot].score = 0
        running[slot].daily = started.daily
        running[slot].epoch = epoch
        return attempt
    }

    /// The reset count of the user whose event is being folded.
    private var epoch: Int {
        let u = Int(user)
        return u < epochs.count ? epochs[u] : 0
    }

    mutating func resetQuizzes() {
        let u = Int(user)
        if u >= epochs.count { epochs.append(contentsOf: repeatElement(0, count: u + 1 - epochs.count)) }
        epochs[u] += 1
    }

    func counts(_ attempt: Int) -> Bool {
        running[index.slot(attempt)].epoch == epoch
    }

    mutating func answer(_ attempt: Int, _ answer: FoldAnswer, _ event: FoldEvent.View) -> Bool {
        let slot = index.slot(attempt)
        let q = answer.question
        let head = Self.word(q, 0)
        let bit: UInt64 = 1 << (((head ^ UInt64(q.count) << 59) &* 0x9E37_79B9_7F4A_7C15) >> 58)
        // One uniqueness check of `running` for the whole answer.
        return running.withUnsafeMutableBufferPointer { running in
            if running[slot].seen & bit != 0, Self.contains(running[slot].answered, q, head: head) { return false }
            running[slot].seen |= bit
            running[slot].answered.append(UInt64(q.count))
            if q.count > 0 { running[slot].answered.append(head) }
            var i = 8
            while i < q.count {
                running[slot].answered.append(Self.word(q, i))
                i += 8
            }
            if answer.correct { running[slot].score += 1 }
            return true
        }
    }

    func hint(_ attempt: Int, _ hint: Void) {}

    mutating func end(_ attempt: Int, finished: Bool, _ event: FoldEvent.View) {
        let slot = index.end(attempt)
        ended.questions = running[slot].questions
        ended.score = running[slot].score
        ended.daily = running[slot].daily
        ended.epoch = running[slot].epoch
        running[slot].answered.removeAll(keepingCapacity: true)
        running[slot].seen = 0
    }

    /// Whether `answered` holds `question`, whose first word is `head`.
    private static func contains(_ answered: [UInt64], _ question: UnsafeRawBufferPointer, head: UInt64) -> Bool {
        let n = question.count
        let words = (n + 7) / 8
        return answered.withUnsafeBufferPointer { a in
            var i = 0
            while i < a.count {
                let length = Int(a[i])
                if length == n, words == 0 || a[i + 1] == head {
                    var w = 1
                    while w < words, a[i + 1 + w] == word(question, 8 * w) { w += 1 }
                    if w >= words { return true }
                }
                i += 1 + (length + 7) / 8
            }
            return false
        }
    }

    /// Bytes `i ..< i + 8` of `bytes` as a little-endian word, zero-padded past the end.
    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ i: Int) -> UInt64 {
        let r = bytes.count - i
        if r >= 8 { return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }
        // The last 1 to 7 bytes, as two overlapping loads (the bytes they share are the same).
        if r >= 4 {
            let low = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i + r - 4, as: UInt32.self)))
            return low | high << UInt64(8 * (r - 4))
        }
        if r >= 2 {
            let low = UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt16.self)))
            let high = UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: i + r - 2, as: UInt16.self)))
            return low | high << UInt64(8 * (r - 2))
        }
        return r == 1 ? UInt64(bytes[i]) : 0
    }
}
