import Events

/// Events read from several logs, by id: so that an event found in more than
/// one (synced to two places, or the same log given twice) counts once,
/// where it was first read (the spec's `report LOG...`; see
/// ``ReportFold/add(_:readAt:)``).
package struct SeenEvents: Sendable {
    /// Where an id was first read, and its content.
    private var first: [ExactString: (place: String, content: [UInt8])] = [:]

    /// An empty set.
    package init() {}

    /// What to do with a record.
    package enum Verdict: Sendable, Hashable {
        /// First time this id is read: count it.
        case new
        /// Read before with the same content: skip it.
        case repeated
        /// Read before at `earlier` with different content: skip it and warn.
        case conflicting(earlier: String)
    }

    /// Files `record`, read at `place` (`FILE:LINE`), and says whether to count it.
    package mutating func check(_ record: Record, at place: String) -> Verdict {
        let content: [UInt8]
        switch record {
        case .event(let e): content = LineCodec.encode(e.resealed(seq: 1, prev: Envelope.genesis))
        case .newer: content = []
        }
        guard let earlier = first[ExactString(record.id)] else {
            first[ExactString(record.id)] = (place, content)
            return .new
        }
        if content.isEmpty || LineCodec.sameContent(earlier.content, content) { return .repeated }
        return .conflicting(earlier: earlier.place)
    }
}
