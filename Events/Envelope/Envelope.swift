/// One version-1 line of the log: the envelope and its typed event.
///
/// Members are written in the order `v, seq, id, at, user, device, type, data, prev`.
public struct Envelope: Sendable, Hashable {
    /// The format version this type writes and reads.
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

/// A line whose `v` is newer than this reader knows: kept as its raw bytes.
///
/// Only `seq`, `id` and `prev` are checked; `user` is read when it is a string.
public struct NewerVersionLine: Sendable, Hashable {
    /// The line's `v` (> 1).
    public var version: Int
    /// Its position.
    public var seq: Int
    /// Its id.
    public var id: String
    /// Its learner, if the line has a string `user`.
    public var user: String?
    /// Its `prev` link.
    public var prev: String
    /// Its `type`, if a string.
    public var type: String?

    /// Makes the description of a newer-version line.
    package init(version: Int, seq: Int, id: String, user: String?, prev: String, type: String?) {
        self.version = version; self.seq = seq; self.id = id; self.user = user
        self.prev = prev; self.type = type
    }
}

/// What one valid log line holds: a version-1 envelope or a newer-version line.
public enum Record: Sendable, Hashable {
    /// A version-1 event.
    case v1(Envelope)
    /// A line of a newer format version, kept as it is.
    case newer(NewerVersionLine)

    /// The line's `seq`.
    public var seq: Int {
        switch self { case .v1(let e): e.seq; case .newer(let n): n.seq }
    }
    /// The line's `id`.
    public var id: String {
        switch self { case .v1(let e): e.id; case .newer(let n): n.id }
    }
    /// The line's `prev`.
    public var prev: String {
        switch self { case .v1(let e): e.prev; case .newer(let n): n.prev }
    }
    /// The line's user, when known.
    public var user: String? {
        switch self { case .v1(let e): e.user; case .newer(let n): n.user }
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
