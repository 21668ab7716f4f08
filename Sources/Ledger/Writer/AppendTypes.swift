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

    /// Where ``envelope`` comes from.
    private enum Source: Sendable {
        case none
        case given(Envelope)
        /// Event `index` of the appended batch, sealed at `seq` with `id` after the line hashing to
        /// ``prev``: made only when asked for (most callers want the seq alone).
        case sealed(batch: [NewEvent], index: Int, seq: Int, id: String)
    }
    private var source: Source
    /// For `.sealed`: the hash of the line before.
    private var prev = SHA256.Digest.zero

    /// The line as written, for `.appended`: apply it to a live projection
    /// (nil for `.alreadyPresent`, which the log, and so the projection, already has).
    public var envelope: Envelope? {
        get {
            switch source {
            case .none: nil
            case .given(let envelope): envelope
            case .sealed(let batch, let index, let seq, let id): batch[index].sealed(seq: seq, id: id, prev: prev.hex)
            }
        }
        set { source = newValue.map { .given($0) } ?? .none }
    }

    /// Makes a result.
    public init(id: String, seq: Int, status: Status, envelope: Envelope? = nil) {
        self.id = id; self.seq = seq; self.status = status
        source = envelope.map { .given($0) } ?? .none
    }

    /// The result of `batch[index]`, appended at `seq` (its `prev` is set by ``setPrev(_:)``).
    init(id: String, seq: Int, sealing batch: [NewEvent], at index: Int) {
        self.id = id; self.seq = seq; status = .appended
        source = .sealed(batch: batch, index: index, seq: seq, id: id)
    }

    /// Sets the hash of the line before this result's line.
    mutating func setPrev(_ digest: SHA256.Digest) { prev = digest }

    /// Equal when id, seq, status and envelope are.
    public static func == (a: AppendResult, b: AppendResult) -> Bool {
        a.id == b.id && a.seq == b.seq && a.status == b.status && a.envelope == b.envelope
    }

    /// Hashes id, seq, status and envelope.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id); hasher.combine(seq); hasher.combine(status); hasher.combine(envelope)
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
