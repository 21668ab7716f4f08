/// An event to append: the envelope without the members the ledger assigns.
///
/// `id` may be nil: the ledger then makes one (a UUID).
public struct NewEvent: Sendable, Hashable {
    /// The idempotency key; nil to let the ledger make one.
    public var id: String?
    /// When the action happened.
    public var at: Timestamp
    /// The learner.
    public var user: String
    /// The device or client that recorded it.
    public var device: String?
    /// The event.
    public var event: Event

    /// Makes an event to append.
    public init(id: String? = nil, at: Timestamp, user: String, device: String? = nil, event: Event) {
        self.id = id; self.at = at; self.user = user; self.device = device; self.event = event
    }

    /// The envelope this event becomes at `seq` after the line hashing to `prev`.
    public func sealed(seq: Int, id: String, prev: String) -> Envelope {
        Envelope(seq: seq, id: id, at: at, user: user, device: device, event: event, prev: prev)
    }
}
