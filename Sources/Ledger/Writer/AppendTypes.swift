import Events

/// When an append's bytes are forced to disk.
public enum Durability: Sendable, Hashable {
    /// fsync after every batch, before `append` returns (the default).
    case everyBatch
    /// No fsync per batch: for bulk loads. Call `LedgerWriter.sync()` at the end;
    /// until it returns, the batches are not durable.
    case deferred
}

/// What happened to one event of an appended batch.
public struct AppendResult: Sendable, Hashable {
    /// Whether the event was written now or was already in the log.
    public enum Status: Sendable, Hashable {
        /// Written by this append at `seq`.
        case appended
        /// An event with this id was already in the log at `seq`: nothing was written.
        case alreadyPresent
    }

    /// The event's id (the one given, or the UUID the ledger made).
    public var id: String
    /// Its position in the log.
    public var seq: Int
    /// Whether it was written now.
    public var status: Status
    /// The line as written, for `.appended`: apply it to a live projection
    /// (nil for `.alreadyPresent`, which the log, and so the projection, already has).
    public var envelope: Envelope?

    /// Makes a result.
    public init(id: String, seq: Int, status: Status, envelope: Envelope? = nil) {
        self.id = id; self.seq = seq; self.status = status; self.envelope = envelope
    }
}

/// A torn tail a writer found and moved aside, to say on stderr.
public struct Recovery: Sendable, Hashable, CustomStringConvertible {
    /// The log.
    public var logPath: String
    /// The side file now holding the torn bytes (created 0600, never overwritten).
    public var sideFile: String
    /// Where the tail was: the line it would have been, its offset (the log's new size) and length.
    public var tail: TornTail

    /// Makes a recovery record.
    public init(logPath: String, sideFile: String, tail: TornTail) {
        self.logPath = logPath; self.sideFile = sideFile; self.tail = tail
    }

    /// One line for a person.
    public var description: String {
        "\(logPath): recovered a torn tail: moved \(tail.length) byte\(tail.length == 1 ? "" : "s") after the last "
            + "complete line (line \(tail.line - 1)) to \(sideFile) and truncated the log to \(tail.offset) bytes"
    }
}
