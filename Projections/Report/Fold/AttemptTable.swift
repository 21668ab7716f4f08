import Events

/// Every user's attempts as the report needs them: the attempts book's rules
/// (``AttemptsBook``) with only what the counts read kept.
///
/// An attempt is known from its first `quiz.started` to the end of the log,
/// under its user and exact id, with its start day: every later event naming
/// it counts on that day, and a second start is a duplicate. While it runs it
/// also keeps its question count, its score, whether it is a daily quiz, the
/// streak's reset count at its start, and the questions answered (the first
/// answer to each counts). When it finishes or is abandoned that running part
/// is dropped (its storage reused by the next attempt), leaving the id and the
/// day (about 40 bytes an attempt in all): later events for it are after its end.
struct AttemptTable: Sendable {
    /// What an attempt kept while it ran, handed back when it ends.
    struct Ended: Sendable {
        /// The `questions` of its start.
        var questions: Int
        /// Its correct first answers.
        var score: Int
        /// Whether it was a daily quiz.
        var daily: Bool
        /// The streak's reset count when it started.
        var epoch: Int
    }

    private struct Running: Sendable {
        var questions = 0
        var score = 0
        var daily = false
        var epoch = 0
        /// The questions answered: each a word holding its length in bytes,
        /// then its UTF-8 in words (little-endian, the last one zero-padded).
        var answered: [UInt64] = []
    }

    private struct Known: Sendable {
        /// The day of its first `quiz.started` (every day of a 4-digit year
        /// fits; another goes to `farDays` and this holds `Int32.min`).
        var day: Int32
        /// Its index in `running`, or -1 once it has ended.
        var running: Int32
    }

    /// Ids, under their user's number.
    private var ids = ByteKeys()
    /// Per id number.
    private var known: [Known] = []
    private var running: [Running] = []
    /// Indexes of `running` free for the next attempt.
    private var free: [Int32] = []
    /// Start days that do not fit in `Known.day`, by id number (none from a parsed `at`).
    private var farDays: [Int: Int] = [:]

    /// Nothing known.
    init() {}

    /// Folds a `quiz.started` on `day`: returns the day of the attempt and
    /// whether this start is its first (false for a duplicate, which changes nothing).
    mutating func start(user: Int32, _ started: QuizStarted, day: Int, epoch: Int) -> (day: Int, first: Bool) {
        let (index, inserted) = withUTF8Bytes(started.attempt) { ids.insert($0, tag: user) }
        guard inserted else { return (self.day(index), false) }
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
        if let near = Int32(exactly: day), near != Int32.min {
            known.append(Known(day: near, running: slot))
        } else {
            known.append(Known(day: Int32.min, running: slot))
            farDays[index] = day
        }
        return (day, true)
    }

    /// The number of the attempt `id` of `user`, nil when it was never started.
    func find(user: Int32, _ id: String) -> Int? {
        withUTF8Bytes(id) { ids.find($0, tag: user) }
    }

    /// The start day of attempt `attempt`.
    func day(_ attempt: Int) -> Int {
        let day = known[attempt].day
        return day != Int32.min ? Int(day) : farDays[attempt] ?? Int(day)
    }

    /// Folds an answer to `question`: true when it is the first answer to that
    /// question of the attempt while it runs (the one that counts).
    mutating func answer(_ attempt: Int, question: String, correct: Bool) -> Bool {
        let slot = Int(known[attempt].running)
        guard slot >= 0 else { return false }
        let first = withUTF8Bytes(question) { q -> Bool in
            if Self.contains(running[slot].answered, q) { return false }
            running[slot].answered.append(UInt64(q.count))
            var i = 0
            while i < q.count {
                running[slot].answered.append(Self.word(q, i))
                i += 8
            }
            return true
        }
        if first, correct { running[slot].score += 1 }
        return first
    }

    /// Folds a `quiz.finished` or `quiz.abandoned`: what the attempt kept,
    /// or nil when it had already ended.
    mutating func end(_ attempt: Int) -> Ended? {
        let slot = Int(known[attempt].running)
        guard slot >= 0 else { return nil }
        known[attempt].running = -1
        let ended = Ended(questions: running[slot].questions, score: running[slot].score,
                          daily: running[slot].daily, epoch: running[slot].epoch)
        running[slot].answered.removeAll(keepingCapacity: true)
        free.append(Int32(truncatingIfNeeded: slot))
        return ended
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
