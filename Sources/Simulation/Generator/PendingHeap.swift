import Events

/// An event generated but not yet released into the log.
///
/// The log's order is the order events are *recorded* in (`recordedAt`), which
/// for an offline device or a retried request is later than their `at`.
struct Pending: Sendable {
    /// When the event reaches the log.
    let recordedAt: Instant
    /// Generation order, to break ties deterministically (a session's events keep their order).
    let order: UInt64
    /// The event.
    let event: NewEvent

    func precedes(_ other: Pending) -> Bool {
        recordedAt != other.recordedAt ? recordedAt < other.recordedAt : order < other.order
    }
}

/// A binary min-heap of pending events by recording time, then generation order.
struct PendingHeap: Sendable {
    private var items: [Pending] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var first: Pending? { items.first }

    mutating func insert(_ item: Pending) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].precedes(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Pending? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < items.count, items[left].precedes(items[best]) { best = left }
            if right < items.count, items[right].precedes(items[best]) { best = right }
            guard best != parent else { break }
            items.swapAt(parent, best)
            parent = best
        }
        return top
    }
}
