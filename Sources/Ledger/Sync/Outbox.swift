import Events

/// A device's outbox: every event it recorded, appended locally. What it has
/// not yet seen in its ``Replica`` is what it pushes (see docs/sync.md).
public struct Outbox: Sendable {
    /// The outbox log's path.
    public let path: String

    /// The outbox at `path`.
    public init(path: String) { self.path = path }

    /// One event to push.
    public struct PendingEvent: Sendable, Hashable {
        /// Its line in the outbox.
        public var line: Int
        /// The event, with its id: what `LedgerWriter.append` takes on the server.
        public var event: NewEvent
        /// The outbox line without `v`, `seq` and `prev`, members otherwise as
        /// written: one line `progress-ledger append` reads.
        public var json: [UInt8]
    }

    /// The outbox's events whose ids are not in the replica at `replica` (a
    /// missing replica holds nothing), in outbox order. Both logs are verified
    /// first. An id in both with different content throws
    /// `.conflictingDuplicate` naming both files and lines (the server would
    /// refuse it too). Newer-version lines are left out (this version cannot
    /// append them).
    public func pending(replica: String) throws(LedgerError) -> [PendingEvent] {
        try pending(against: VerifiedLog.load(replica, missingIsEmpty: true))
    }

    /// The records a device shows: the replica's (`replica`, missing: none;
    /// an erased event's stub is none), then the outbox's pending events, as
    /// they would be sealed after the replica's head. For `state` while offline.
    public func deviceRecords(replica: String) throws(LedgerError) -> [Record] {
        let held = try VerifiedLog.load(replica, missingIsEmpty: true)
        var records = held.lines.map(\.record)
        var seq = held.head.seq
        var prev = held.head.sha256.hex   // 64 zeros (the genesis) for an empty replica
        for p in try pending(against: held) {
            guard let id = p.event.id else { continue }
            seq += 1
            let sealed = p.event.sealed(seq: seq, id: id, prev: prev)
            prev = LineDigest.of(LineCodec.encode(sealed)).hex
            records.append(.event(sealed))
        }
        return records
    }

    private func pending(against held: VerifiedLog) throws(LedgerError) -> [PendingEvent] {
        var index: [ExactString: Int] = [:]
        for (k, line) in held.lines.enumerated() { index[ExactString(line.record.id)] = k }
        var out: [PendingEvent] = []
        for line in try VerifiedLog.load(path).lines {
            guard case .event(let envelope) = line.record else { continue }
            if let k = index[ExactString(envelope.id)] {
                guard LineCodec.sameContent(held.lines[k].bytes, line.bytes) else {
                    throw LedgerError(.conflictingDuplicate, path: path,
                                      "line \(line.number): conflicting_duplicate: id \"\(envelope.id)\" is in \(held.path) at line "
                                          + "\(held.lines[k].number) (seq \(held.lines[k].number)) with different content")
                }
                continue
            }
            let event = NewEvent(id: envelope.id, at: envelope.at, user: envelope.user, device: envelope.device, event: envelope.event)
            out.append(PendingEvent(line: line.number, event: event, json: Outbox.appendable(line.bytes)))
        }
        return out
    }

    /// A log line without `v`, `seq` and `prev`.
    static func appendable(_ line: [UInt8]) -> [UInt8] {
        guard let members = try? line.withUnsafeBytes({ (raw) throws(EventError) in try LineCodec.parseObject(raw) }) else { return line }
        var writer = JSONWriter()
        writer.value(.object(members.filter { !["v", "seq", "prev"].contains($0.name) }))
        return writer.bytes
    }
}
