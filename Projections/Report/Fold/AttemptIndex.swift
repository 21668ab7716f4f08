import Events

/// Every user's attempts by exact id, for the compact folds over every
/// learner (the report and the leaderboard through ``AttemptTable``, the
/// question analysis through `ItemAttempts`): each attempt numbered under its
/// user's number, with the day of its first `quiz.started` and, while it
/// runs, the slot where its fold keeps what it needs of it.
///
/// When an attempt ends its slot is free for the next one started, so a
/// fold's running storage is as large as the most attempts running at once,
/// and an ended attempt costs its id and about 36 bytes. The rules (which
/// attempt an event is of, its day) are ``AttemptLifecycle``'s; this only stores.
struct AttemptIndex: Sendable {
    private struct Known: Sendable {
        /// The day of its first `quiz.started` (a timestamp's year has 4
        /// digits, so every day fits).
        var day: Int32
        /// Its slot, or -1 once it has ended.
        var slot: Int32
    }

    /// The number of the user whose event is being folded (ids are per user).
    var user: Int32 = 0
    /// Ids, under their user's number.
    private var ids = ByteKeys()
    /// Per id number.
    private var known: [Known] = []
    /// Slots free for the next attempt started.
    private var free: [Int32] = []
    /// How many slots were handed out: a fold's running storage is this long.
    private(set) var slots = 0
    /// By user number, the attempt of theirs found or started last (-1 for
    /// none): nine events in ten are of their user's attempt before, found
    /// without hashing or touching the table (its slots miss the caches on
    /// a large log).
    private var recent: [Int32] = []
    /// Where the last `find` that found nothing ended, for the `start` of
    /// that id that follows (``ByteKeys/insert(_:tag:at:)``), with its id's
    /// bytes and user.
    private var miss: ByteKeys.Miss?
    private var missAddress = 0, missCount = 0
    private var missUser: Int32 = -1

    /// Nothing known.
    init() {}

    /// The attempt of ``user`` with this exact id; nil if never started.
    mutating func find(_ id: String) -> Int? { withUTF8Bytes(id) { find($0) } }

    /// The attempt of ``user`` whose id is these UTF-8 bytes; nil if never started.
    mutating func find(_ id: UnsafeRawBufferPointer) -> Int? {
        miss = nil
        let u = Int(user)
        if u < recent.count {
            let r = Int(recent[u])
            if r >= 0, ids.key(r, equals: id) { return r }
        }
        guard let found = ids.find(id, tag: user, orMiss: &miss) else {
            (missAddress, missCount, missUser) = (Int(bitPattern: id.baseAddress), id.count, user)
            return nil
        }
        remember(found)
        return found
    }

    /// Notes `attempt` as the last one of ``user``.
    @inline(__always)
    private mutating func remember(_ attempt: Int) {
        let u = Int(user)
        if u >= recent.count { recent.append(contentsOf: repeatElement(-1, count: u + 1 - recent.count)) }
        recent[u] = Int32(truncatingIfNeeded: attempt)
    }

    /// The day of the attempt's first `quiz.started`.
    func day(_ attempt: Int) -> Day { Day(ordinal: Int(known[attempt].day)) }

    /// Whether it has not ended.
    func isRunning(_ attempt: Int) -> Bool { known[attempt].slot >= 0 }

    /// Its slot (it is running).
    func slot(_ attempt: Int) -> Int { Int(known[attempt].slot) }

    /// Files attempt `id` of ``user``, started on `day` (it was not known):
    /// its number, and its slot (a new one is `slots - 1`: the fold adds
    /// storage for it; a reused one holds what the attempt before left).
    mutating func start(_ id: String, on day: Day) -> (attempt: Int, slot: Int) {
        // A string's bytes may be a temporary copy: no ``ByteKeys/Miss`` reused for it.
        miss = nil
        return withUTF8Bytes(id) { start($0, on: day) }
    }

    /// Files the attempt whose id is these UTF-8 bytes, as the `String` form
    /// does. Right after ``find(_:)`` missed the same bytes (the lifecycle's
    /// order), it files it where that look-up ended, without probing again.
    mutating func start(_ id: UnsafeRawBufferPointer, on day: Day) -> (attempt: Int, slot: Int) {
        let index: Int
        if let miss, missUser == user, missAddress == Int(bitPattern: id.baseAddress), missCount == id.count {
            index = ids.insert(id, tag: user, at: miss)
        } else {
            index = ids.insert(id, tag: user).index
        }
        miss = nil
        let slot: Int32
        if let reused = free.popLast() {
            slot = reused
        } else {
            slot = Int32(truncatingIfNeeded: slots)
            slots += 1
        }
        known.append(Known(day: Int32(truncatingIfNeeded: day.ordinal), slot: slot))
        remember(index)
        return (index, Int(slot))
    }

    /// Ends a running attempt; returns its slot, free from now on (its
    /// storage stays as it was until the next attempt starts in it).
    mutating func end(_ attempt: Int) -> Int {
        let slot = known[attempt].slot
        known[attempt].slot = -1
        free.append(slot)
        return Int(slot)
    }

    /// Forgets every attempt (a learner was closed); every slot is free again.
    mutating func removeAll() {
        ids.removeAll()
        known.removeAll(keepingCapacity: true)
        free = Array((0..<Int32(truncatingIfNeeded: slots)).reversed())
        recent.removeAll(keepingCapacity: true)
        miss = nil
    }
}

/// A compact fold's attempt store over an ``AttemptIndex``: finding an
/// attempt, its day and whether it runs are the index's; what the store keeps
/// while an attempt runs is its own (``AttemptTable``, `ItemAttempts`).
protocol IndexedAttempts: AttemptStore where Ref == Int {
    /// The attempts' ids, days and slots.
    var index: AttemptIndex { get set }
}

extension IndexedAttempts {
    /// The number of the user whose event is being folded (ids are per user).
    var user: Int32 {
        get { index.user }
        set { index.user = newValue }
    }

    func day(_ attempt: Int) -> Day { index.day(attempt) }

    func isRunning(_ attempt: Int) -> Bool { index.isRunning(attempt) }
}
