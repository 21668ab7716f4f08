import Events

/// One sitting of a learner on one device: a clock that moves as they act.
struct Session: Sendable {
    /// When the next action happens.
    var clock: Instant
    /// The device's UTC offset for the whole session.
    let offset: Int
    /// The device name written in `device`.
    let device: String
    /// Fraction digits the device writes.
    let digits: Int
    /// Milliseconds between an action and when it reaches the log (an offline device syncs later).
    var syncDelay: Int64 = 0
    /// Writes `Z` rather than `+00:00` (servers do).
    var zulu = false

    /// Moves the clock on by a random pause in `range` seconds (with milliseconds).
    mutating func pause(_ range: ClosedRange<Int>, _ rng: inout SeededGenerator) {
        clock = clock.advanced(milliseconds: Int64(rng.int(in: range.lowerBound * 1000...range.upperBound * 1000)))
    }
}

/// Where generated events go: the heap that releases them in recording order.
struct Sink: Sendable {
    var heap = PendingHeap()
    private var order: UInt64 = 0

    mutating func record(_ event: NewEvent, at recordedAt: Instant) {
        order += 1
        heap.insert(Pending(recordedAt: recordedAt, order: order, event: event))
    }
}

extension Learner {
    /// Records `event` at the session's clock, reaching the log `extraDelay` ms after its sync delay.
    mutating func emit(_ event: Event, in session: Session, to sink: inout Sink, extraDelay: Int64 = 0) {
        eventCount += 1
        let at = Timestamp(instant: session.clock, offsetMinutes: session.offset,
                           fractionDigits: session.digits, zulu: session.zulu)
        let new = NewEvent(id: "\(id):\(eventCount)", at: at, user: id, device: session.device, event: event)
        sink.record(new, at: at.instant.advanced(milliseconds: session.syncDelay + extraDelay))
        plan?.add(new)
    }
}
