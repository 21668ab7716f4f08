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
