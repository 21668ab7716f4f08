import Events

/// The report's reader numbers a chunk's ids on the worker that checks the
/// chunk (``FoldEvent/View/Numbers``): users and attempts (under their
/// user's number), each kind from 0 in the order first seen, the same
/// bytes the same number, compared exactly (``ExactBytes``). The fold, on
/// the ordered thread, then finds an id by its bytes once a chunk and by its
/// number after (docs/performance.md, "the report, fifth pass").
///
/// Made empty for each chunk; its keys point into the chunk's lines (or a
/// view's own text), which do not move or change while the chunk is checked.
/// Unchecked-sendable: a keeper carries none until it is copied for one
/// chunk on the worker that checks it (``FoldEvents/beginChunk(at:)``).
struct ChunkNumbers: @unchecked Sendable {
    private struct Key {
        var start: UnsafeRawPointer?
        var count: Int
        /// The kind: -1 users, an attempt its user's number.
        var tag: Int32
        /// Its number within its kind.
        var number: Int32
    }

    /// The chunk's first line.
    private let chunk: Int
    /// The hash's seed (``ExactBytes/processSeed``, read once).
    private let seed = ExactBytes.processSeed
    private var keys: [Key] = []
    /// Indices into `keys`, -1 for an empty slot; a power of two long, at most half full.
    private var slots: [Int32] = []
    private var users: Int32 = 0, attempts: Int32 = 0
    /// The user and the attempt numbered last: a line is often by the user,
    /// and of the attempt, of the line before (found without hashing).
    private var lastUser = Key(start: nil, count: -1, tag: -1, number: -1)
    private var lastAttempt = Key(start: nil, count: -1, tag: -1, number: -1)

    /// Numbers for the chunk whose first line is number `chunk`.
    init(chunk: Int) { self.chunk = chunk }

    /// Numbers the ids of `view` (its user's and its attempt's; skills are
    /// few, and the fold finds them as fast by their bytes).
    mutating func number(_ view: inout FoldEvent.View) {
        var n = FoldEvent.View.Numbers()
        n.chunk = chunk
        var last = lastUser
        n.user = number(view.user, tag: -1, next: users, last: &last)
        lastUser = last
        if n.user == users { users += 1 }
        switch view.type {
        case .quizStarted, .answerSelected, .hintUsed, .quizFinished, .quizAbandoned:
            last = lastAttempt
            n.attempt = number(view.attempt, tag: n.user, next: attempts, last: &last)
            lastAttempt = last
            if n.attempt == attempts { attempts += 1 }
        default:
            break
        }
        view.numbers = n
    }

    /// ``number(_:tag:next:)``, first comparing with the key `last` found before (and then remembering it).
    @inline(__always)
    private mutating func number(_ bytes: UnsafeRawBufferPointer, tag: Int32, next: Int32, last: inout Key) -> Int32 {
        if last.tag == tag, last.count == bytes.count,
           ExactBytes.equal(UnsafeRawBufferPointer(start: last.start, count: last.count), bytes) {
            return last.number
        }
        let number = number(bytes, tag: tag, next: next)
        last = Key(start: bytes.baseAddress, count: bytes.count, tag: tag, number: number)
        return number
    }

    /// The number of `bytes` in kind `tag`; `next` (filed for them) when they are new.
    private mutating func number(_ bytes: UnsafeRawBufferPointer, tag: Int32, next: Int32) -> Int32 {
        if slots.isEmpty { slots = Array(repeating: -1, count: 1024) }
        let hash = ExactBytes.hash(bytes, tag, seed)
        let found: Int32? = keys.withUnsafeBufferPointer { keys in
            slots.withUnsafeMutableBufferPointer { slots in
                let mask = slots.count - 1
                var slot = hash & mask
                while true {
                    let k = Int(slots[slot])
                    if k < 0 {
                        slots[slot] = Int32(truncatingIfNeeded: keys.count)
                        return nil
                    }
                    let key = keys[k]
                    if key.tag == tag, key.count == bytes.count,
                       ExactBytes.equal(UnsafeRawBufferPointer(start: key.start, count: key.count), bytes) {
                        return key.number
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
        if let found { return found }
        keys.append(Key(start: bytes.baseAddress, count: bytes.count, tag: tag, number: next))
        if 2 * keys.count > slots.count { grow() }
        return next
    }

    /// Doubles the table, placing every key again.
    private mutating func grow() {
        var grown = [Int32](repeating: -1, count: 2 * slots.count)
        let mask = grown.count - 1
        for (k, key) in keys.enumerated() {
            var slot = ExactBytes.hash(UnsafeRawBufferPointer(start: key.start, count: key.count), key.tag, seed) & mask
            while grown[slot] >= 0 { slot = (slot + 1) & mask }
            grown[slot] = Int32(truncatingIfNeeded: k)
        }
        slots = grown
    }
}
