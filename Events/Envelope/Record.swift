/// A line whose `v` is newer than this reader knows: kept as its raw bytes.
///
/// Only `seq`, `id` and `prev` are checked; `user` is read when it is a string.
public struct NewerVersionLine: Sendable, Hashable {
    /// The line's `v` (above the versions this reader knows).
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
    /// Its `at`, if a valid timestamp written without escapes (every version
    /// keeps the envelope's members and their meaning: docs/format.md).
    public var at: Timestamp?

    /// Makes the description of a newer-version line.
    package init(version: Int, seq: Int, id: String, user: String?, prev: String, type: String?, at: Timestamp? = nil) {
        self.version = version; self.seq = seq; self.id = id; self.user = user
        self.prev = prev; self.type = type; self.at = at
    }
}

/// What one valid log line holds: an event of a format version this reader
/// knows, fully checked and typed, or a line of a newer version, kept.
public enum Record: Sendable, Hashable {
    /// An event of a known format version (1 or 2), fully checked.
    case event(Envelope)
    /// A line of a newer format version, kept as it is.
    case newer(NewerVersionLine)

    /// An event of a known format version (this case's name before version 2 existed). It builds a
    /// record only: a pattern `case .v1(let e)` cannot match a function; write `case .event(let e)` (CHANGELOG.md, 1.2.0).
    @available(*, deprecated, renamed: "event")
    public static func v1(_ envelope: Envelope) -> Record { .event(envelope) }

    /// The line's `seq`.
    public var seq: Int {
        switch self { case .event(let e): e.seq; case .newer(let n): n.seq }
    }
    /// The line's `id`.
    public var id: String {
        switch self { case .event(let e): e.id; case .newer(let n): n.id }
    }
    /// The line's `prev`.
    public var prev: String {
        switch self { case .event(let e): e.prev; case .newer(let n): n.prev }
    }
    /// The line's user, when known.
    public var user: String? {
        switch self { case .event(let e): e.user; case .newer(let n): n.user }
    }
}
