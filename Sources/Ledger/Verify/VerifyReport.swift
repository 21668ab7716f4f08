/// What a full, checked read of a log found.
public struct LogSummary: Sendable, Hashable {
    /// Lines read and valid (version-1 events and newer-version lines).
    public var events: Int
    /// How many of them have `v` > 1 (kept, checked only for seq, id and prev).
    public var newerVersionLines: Int
    /// The last line's seq and SHA-256 (`Head.empty` for an empty log).
    public var head: Head
    /// Bytes after the last LF, if any (a warning).
    public var tornTail: TornTail?
    /// How many of the lines are redaction stubs (erased events: counted in
    /// `events`, their hashes kept, never handed to a projection).
    public var redactedLines: Int

    /// Makes a summary.
    public init(events: Int, newerVersionLines: Int, head: Head, tornTail: TornTail?, redactedLines: Int = 0) {
        self.events = events; self.newerVersionLines = newerVersionLines; self.head = head; self.tornTail = tornTail
        self.redactedLines = redactedLines
    }

    /// The warnings (`line K: torn_tail: ...`).
    public var warnings: [LineProblem] { tornTail.map { [$0.warning] } ?? [] }
}

/// The result of `verify`: the first problem, or the event count and the head.
public struct VerifyReport: Sendable, Hashable {
    /// The log checked.
    public var path: String
    /// The first problem (`line K: KIND: detail`), or nil when the log verifies.
    public var problem: LineProblem?
    /// What was read up to the problem (or the whole log): count, head, torn tail.
    public var summary: LogSummary

    /// Makes a report.
    public init(path: String, problem: LineProblem?, summary: LogSummary) {
        self.path = path; self.problem = problem; self.summary = summary
    }

    /// Whether the log verifies (a torn tail is only a warning).
    public var isOK: Bool { problem == nil }
    /// The event count (lines valid before any problem).
    public var events: Int { summary.events }
    /// The head: the last line's seq and SHA-256.
    public var head: Head { summary.head }
    /// Warnings: a torn tail.
    public var warnings: [LineProblem] { summary.warnings }
}
