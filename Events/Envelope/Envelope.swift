/// One line of the log of a known format version: the envelope and its typed event.
///
/// Members are written in the order `v, seq, id, at, user, device, type, data, prev`;
/// `v` is the version of the event's type (``version-property``).
public struct Envelope: Sendable, Hashable {
    /// The format version of the first event types.
    @available(*, deprecated, message: "a line's v is its type's version: Envelope.version (instance), EventType.version; the newest is FormatVersion.latest")
    public static let version = 1

    /// Position in the log: line n has `seq` n, from 1.
    public var seq: Int
    /// Unique id within the log; the idempotency key.
    public var id: String
    /// When the action happened, with the device's offset.
    public var at: Timestamp
    /// The learner.
    public var user: String
    /// The device or client that recorded it.
    public var device: String?
    // `prev` is declared before `event` only so that the synthesized memberwise
    // init, `init(seq:id:at:user:device:prev:event:)`, does not clash with the
    // public one below: an explicit init copies the whole struct out (every
    // String retained and released once more), the memberwise one does not,
    // and the decoder makes one envelope per line.
    /// Lowercase hex SHA-256 of the previous line's bytes (64 zeros for `seq` 1).
    public var prev: String
    /// The event: its type and `data`.
    public var event: Event

    /// The learner's day of this event (not of its attempt: see Projections).
    public var day: Day { at.day }

    /// The line's `v`: the format version that defined the event's type.
    public var version: Int { event.type.version }

    /// The `prev` of the first line: 64 zeros.
    public static let genesis = String(repeating: "0", count: 64)
}

extension Envelope {
    /// Makes an envelope.
    public init(seq: Int, id: String, at: Timestamp, user: String, device: String? = nil,
                event: Event, prev: String) {
        self.init(seq: seq, id: id, at: at, user: user, device: device, prev: prev, event: event)
    }
}

extension Envelope {
    /// The same event at another `seq` after another `prev` (merge re-chains
    /// events; the report compares two events' content at seq 1 after the genesis).
    package func resealed(seq: Int, prev: String) -> Envelope {
        var e = self
        e.seq = seq
        e.prev = prev
        return e
    }
}
