import Events

/// A batch of events checked and encoded, ready for a writer to seal and
/// write: what `LedgerWriter.append(_:durability:)` does to its events
/// before it takes the lock, done once, without a writer.
///
/// Layers over the writer (the group commit of `ProgressLedger`'s store)
/// prepare each caller's batch on the caller's thread, so that a bad event
/// fails its caller alone and the commit thread never encodes; several
/// prepared batches are then written as one (`append(contentsOf:)`).
package struct PreparedEvents: Sendable {
    /// One event's id, the hash the id index files it under, and its line.
    struct Item: Sendable {
        /// The id given, or the UUID made for the event.
        var id: String
        /// `IDIndex.hash(_:)` of `id`.
        var hash: UInt64
        /// The line, waiting for its seq and prev.
        var line: PendingLine
        /// When an earlier event of the batch has this id, with the same
        /// content: that event's index (the event is not written twice).
        var repeatOf: Int?
    }

    /// The events, in order.
    package private(set) var events: [NewEvent] = []
    /// Each event's id, hash and line.
    private(set) var items: [Item] = []
    /// Whether `repeatOf` is known for every item: true for a batch made by
    /// one `init(_:path:)`, false once batches were joined or cut (an id of
    /// one may be in another: the writer looks again, over the whole batch).
    private(set) var repeatsFound = true

    /// An empty batch with room for `capacity` events.
    package init(capacity: Int = 0) {
        events.reserveCapacity(capacity)
        items.reserveCapacity(capacity)
    }

    /// Checks every event (as the decoder checks its line) and the ids within
    /// the batch, fills in missing ids with UUIDs, and encodes each line: the
    /// writer's own preparation. Throws what `append` throws for such a batch
    /// (`.invalidEvent`, `.conflictingDuplicate`, the index being the
    /// position in `events`), before any I/O; `path` names the log in errors.
    package init(_ events: [NewEvent], path: String) throws(LedgerError) {
        self.events = events
        items.reserveCapacity(events.count)
        var ids = BatchIDs(count: events.count)
        for k in events.indices {
            items.append(try Self.prepare(events[k], index: k, count: events.count, path: path))
            items[k].repeatOf = try ids.add(k, of: items, count: events.count, path: path)
        }
    }

    /// Event `index` of a batch of `count`: its id (the one given, or a new
    /// UUID), the id's hash and the line, checked as the decoder checks it.
    static func prepare(_ event: NewEvent, index: Int, count: Int, path: String) throws(LedgerError) -> Item {
        let id = event.id ?? LedgerWriter.makeID()
        let line: PendingLine
        do {
            line = try LineCodec.encodeChecked(event, id: id)
        } catch {
            throw LedgerError(invalid: error, index: index, count: count, id: event.id, path: path)
        }
        // The index's hash, over the id's bytes in place (iterating `String.utf8` costs more).
        let hash = id.utf8.withContiguousStorageIfAvailable { IDIndex.hash(bytes: $0) } ?? IDIndex.hash(id)
        return Item(id: id, hash: hash, line: line)
    }

    /// Adds one prepared event after these (a caller's batch of one: no array made for it).
    package mutating func append(_ one: consuming PreparedEvent) {
        repeatsFound = items.isEmpty ? repeatsFound : false
        events.append(one.event)
        items.append(one.item)
    }

    /// How many events the batch holds.
    package var count: Int { items.count }

    /// Makes room for `n` events in all.
    mutating func reserveCapacity(_ n: Int) {
        events.reserveCapacity(n)
        items.reserveCapacity(n)
    }

    /// Adds `other`'s events after these: one batch, written with one write
    /// (ids repeated across the two are found when the batch is appended).
    package mutating func append(contentsOf other: PreparedEvents) {
        repeatsFound = items.isEmpty || other.items.isEmpty ? repeatsFound && other.repeatsFound : false
        events += other.events
        items += other.items
    }

    /// Takes the first `n` events out, as a batch of their own.
    package mutating func removeFirst(_ n: Int) -> PreparedEvents {
        var first = PreparedEvents()
        first.events = Array(events[..<n])
        first.items = Array(items[..<n])
        first.repeatsFound = false
        events.removeFirst(n)
        items.removeFirst(n)
        repeatsFound = false
        return first
    }

    /// Takes the events in `range` out (a caller's batch the writer refused).
    package mutating func removeSubrange(_ range: Range<Int>) {
        events.removeSubrange(range)
        items.removeSubrange(range)
        repeatsFound = false
    }

    /// Each event's earlier event with its id, when the batch was joined (nil:
    /// each item's `repeatOf` is known): the rule of `BatchIDs` over the whole
    /// batch, throwing `.conflictingDuplicate` when their content differs.
    func joinedRepeats(path: String) throws(LedgerError) -> [Int?]? {
        guard !repeatsFound else { return nil }
        var ids = BatchIDs(count: items.count)
        var found: [Int?] = []
        found.reserveCapacity(items.count)
        for k in items.indices {
            found.append(try ids.add(k, of: items, count: items.count, path: path))
        }
        return found
    }
}

/// One event checked and encoded: `PreparedEvents` of a batch of one,
/// without the arrays (what a store's single-event append joins its group with).
package struct PreparedEvent: Sendable {
    /// The event.
    let event: NewEvent
    /// Its id, the id's hash and its line.
    let item: PreparedEvents.Item

    /// Checks and encodes `event` as `PreparedEvents([event], path:)` would.
    package init(_ event: NewEvent, path: String) throws(LedgerError) {
        self.event = event
        item = try PreparedEvents.prepare(event, index: 0, count: 1, path: path)
    }
}

/// The ids of a batch so far: the one rule for an id repeated within a batch
/// (the same content: written once; different content: the batch is refused).
struct BatchIDs {
    /// Slots, by hash: (the hash's high 32 bits) << 32 | (index + 1), 0 when
    /// empty; open addressing, a power of two more than twice the batch. Empty
    /// for a batch of one event (no id can repeat).
    private var table: [UInt64]

    /// Room for a batch of `count` events.
    init(count: Int) {
        table = count > 1 ? Array(repeating: 0, count: 1 << (Int.bitWidth - (2 * count - 1).leadingZeroBitCount)) : []
    }

    /// Files event `k` of `items` (the earlier ones filed already): the index
    /// of an earlier event with its id and the same content, or nil when its id
    /// is new to the batch. Different content: `.conflictingDuplicate` (event
    /// `k` of `count`). Ids are compared by their bytes (`CodePoint.equal`).
    mutating func add(_ k: Int, of items: [PreparedEvents.Item], count: Int, path: String) throws(LedgerError) -> Int? {
        guard !table.isEmpty else { return nil }
        let id = items[k].id, hash = items[k].hash
        let mask = table.count - 1
        let tag = hash >> 32
        var slot = Int(truncatingIfNeeded: hash) & mask
        while table[slot] != 0 {
            let entry = table[slot]
            let first = Int(entry & 0xFFFF_FFFF) - 1
            if entry >> 32 == tag, CodePoint.equal(items[first].id, id) {
                guard LineCodec.sameContent(items[first].line.template, items[k].line.template) else {
                    throw LedgerError(conflicting: id, index: k, count: count, where: "event \(first + 1) of this batch", path: path)
                }
                return first
            }
            slot = (slot + 1) & mask
        }
        table[slot] = tag << 32 | UInt64(k + 1)
        return nil
    }
}
