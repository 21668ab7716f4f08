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
        for slot in running.indices { running[slot].answered.removeAll(keepingCapacity: true) }
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
        if Self.contains(running[slot].answered, q) { return false }
        running[slot].answered.append(UInt64(q.count))
        var i = 0
        while i < q.count {
            running[slot].answered.append(Self.word(q, i))
            i += 8
        }
        if answer.correct { running[slot].score += 1 }
        return true
    }

    func hint(_ attempt: Int, _ hint: Void) {}

    mutating func end(_ attempt: Int, finished: Bool, _ event: FoldEvent.View) {
        let slot = index.end(attempt)
        ended.questions = running[slot].questions
        ended.score = running[slot].score
        ended.daily = running[slot].daily
        ended.epoch = running[slot].epoch
        running[slot].answered.removeAll(keepingCapacity: true)
    }

    private static func contains(_ answered: [UInt64], _ question: UnsafeRawBufferPointer) -> Bool {
        let n = question.count
        let words = (n + 7) / 8
        let head = word(question, 0)
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
        if i + 8 <= bytes.count { return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }
        var w: UInt64 = 0
        var shift: UInt64 = 0
        for k in i..<bytes.count {
            w |= UInt64(bytes[k]) << shift
            shift += 8
        }
        return w
    }
}
