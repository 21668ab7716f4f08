import Events

/// The report's storage for ``AttemptLifecycle``: every user's attempts with
/// only what the counts read kept (the rules are the lifecycle's, as for
/// `state`'s ``AttemptsBook``).
///
/// An attempt is known from its first `quiz.started` to the end of the log,
/// under its user and exact id, with its start day. While it runs it also
/// keeps its question count, its score, whether it is a daily quiz, the
/// streak's reset count at its start, and the questions answered. When it
/// finishes or is abandoned that running part is handed over in ``ended``
/// and dropped (its storage reused by the next attempt), leaving the id and
/// the day (about 40 bytes an attempt in all).
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

    private struct Known: Sendable {
        /// The day of its first `quiz.started` (a timestamp's year has 4
        /// digits, so every day fits).
        var day: Int32
        /// Its index in `running`, or -1 once it has ended.
        var running: Int32
    }

    /// The number of the user whose event is being folded (ids are per user).
    var user: Int32 = 0
    /// That user's reset count, given to the attempts it starts.
    var epoch = 0
    /// The attempt that ended last, as it was when it ended.
    private(set) var ended = Running()

    /// Ids, under their user's number.
    private var ids = ByteKeys()
    /// Per id number.
    private var known: [Known] = []
    private var running: [Running] = []
    /// Indexes of `running` free for the next attempt.
    private var free: [Int32] = []
    /// The attempt found or started last, and its user: most events are of
    /// the attempt of the event before (no hashing for them). -1 for none.
    private var last = -1
    private var lastUser: Int32 = -1

    /// Nothing known.
    init() {}

    /// Forgets every attempt (a learner was closed), keeping the storage for the next ones.
    mutating func removeAll() {
        ids.removeAll()
        known.removeAll(keepingCapacity: true)
        for slot in running.indices { running[slot].answered.removeAll(keepingCapacity: true) }
        free = Array((0..<Int32(truncatingIfNeeded: running.count)).reversed())
        last = -1
        lastUser = -1
    }
}

extension AttemptTable: AttemptStore {
    mutating func find(_ id: String) -> Int? {
        let found = withUTF8Bytes(id) { bytes -> Int? in
            if last >= 0, lastUser == user, ids.key(last, equals: bytes) { return last }
            return ids.find(bytes, tag: user)
        }
        if let found { last = found; lastUser = user }
        return found
    }

    func day(_ attempt: Int) -> Day {
        Day(ordinal: Int(known[attempt].day))
    }

    func isRunning(_ attempt: Int) -> Bool { known[attempt].running >= 0 }

    mutating func start(_ started: QuizStarted, _ envelope: Envelope) -> Int {
        let index = withUTF8Bytes(started.attempt) { ids.insert($0, tag: user).index }
        let slot: Int32
        if let reused = free.popLast() {
            slot = reused
        } else {
            slot = Int32(truncatingIfNeeded: running.count)
            running.append(Running())
        }
        running[Int(slot)].questions = started.questions
        running[Int(slot)].score = 0
        running[Int(slot)].daily = started.isDaily
        running[Int(slot)].epoch = epoch
        known.append(Known(day: Int32(truncatingIfNeeded: envelope.day.ordinal), running: slot))
        last = index
        lastUser = user
        return index
    }

    mutating func answer(_ attempt: Int, _ answer: AnswerSelected, _ envelope: Envelope) -> Bool {
        let slot = Int(known[attempt].running)
        let first = withUTF8Bytes(answer.question) { q -> Bool in
            if Self.contains(running[slot].answered, q) { return false }
            running[slot].answered.append(UInt64(q.count))
            var i = 0
            while i < q.count {
                running[slot].answered.append(Self.word(q, i))
                i += 8
            }
            return true
        }
        if first, answer.correct { running[slot].score += 1 }
        return first
    }

    func hint(_ attempt: Int, _ hint: HintUsed) {}

    mutating func end(_ attempt: Int, finished: Bool, _ envelope: Envelope) {
        let slot = Int(known[attempt].running)
        known[attempt].running = -1
        ended.questions = running[slot].questions
        ended.score = running[slot].score
        ended.daily = running[slot].daily
        ended.epoch = running[slot].epoch
        running[slot].answered.removeAll(keepingCapacity: true)
        free.append(Int32(truncatingIfNeeded: slot))
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
