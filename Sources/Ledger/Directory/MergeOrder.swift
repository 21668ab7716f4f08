import Events

/// The order in which events of several logs become one log (`join`, `merge`):
/// by instant (`at` as an instant, whatever its offset), then by `id` (UTF-8
/// byte order). Events equal in both keep the order they came in (the sort
/// that uses it is stable).
public enum MergeOrder {
    /// Whether `a` comes before `b` in the merged log.
    public static func precedes(_ a: Envelope, _ b: Envelope) -> Bool {
        precedes((a.at.instant, a.id), (b.at.instant, b.id))
    }

    /// Whether the event at instant `a.at` with id `a.id` comes before `b` in the merged log.
    package static func precedes(_ a: (at: Instant, id: String), _ b: (at: Instant, id: String)) -> Bool {
        if a.at != b.at { return a.at < b.at }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }

    /// `events` in merge order; events equal in both keys keep their relative order.
    public static func sorted(_ events: [Envelope]) -> [Envelope] {
        // A stable sort: the index breaks ties.
        events.indices.sorted { i, j in
            if precedes(events[i], events[j]) { return true }
            if precedes(events[j], events[i]) { return false }
            return i < j
        }.map { events[$0] }
    }
}
