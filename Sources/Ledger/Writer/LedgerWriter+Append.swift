import Events

/// Appending batches.
extension LedgerWriter {
    /// Appends a batch of events: all or nothing.
    ///
    /// Every event is validated first; an invalid one, or an id repeated within
    /// the batch, refuses the whole batch (`.invalidEvent`) and writes nothing.
    /// An event whose id is already in the log is not written again: its result
    /// is `.alreadyPresent` with the seq it has. Missing ids become UUIDs. The
    /// new lines get their `seq` and `prev`, are written with one write, and
    /// (with `.everyBatch`) fsync'd before this returns.
    ///
    /// - A failed write is undone (the log is truncated back to its size before
    ///   the batch); if the undo fails too, `.needsRecovery`.
    /// - A failed fsync throws `.notDurable` and makes the writer unusable.
    @discardableResult
    public func append(_ events: [NewEvent], durability: Durability = .everyBatch) throws(LedgerError) -> [AppendResult] {
        try checkUsable()
        guard !events.isEmpty else { return [] }
        let ids = try validate(events)

        return try withLock { () throws(LedgerError) -> [AppendResult] in
            try catchUp()
            let before = knownSize
            var results: [AppendResult] = []
            results.reserveCapacity(events.count)
            var written: [(id: String, digest: SHA256.Digest)] = []
            var bytes: [UInt8] = []
            var prev = chain.last
            var seq = chain.count
            for (k, event) in events.enumerated() {
                let id = ids[k]
                if let existing = chain.seq(of: id) {
                    results.append(AppendResult(id: id, seq: existing, status: .alreadyPresent))
                    continue
                }
                seq += 1
                let envelope = event.sealed(seq: seq, id: id, prev: prev.hex)
                let line = LineCodec.encode(envelope)
                guard line.count <= LineCodec.maxLineLength else {
                    let e = EventError(.lineTooLong, "the event's line would be \(line.count) bytes; at most \(LineCodec.maxLineLength) are allowed")
                    throw LedgerError(invalid: e, index: k, count: events.count, id: id, path: path)
                }
                prev = line.withUnsafeBytes { LineDigest.of($0) }
                bytes.append(contentsOf: line)
                bytes.append(0x0A)
                written.append((id, prev))
                results.append(AppendResult(id: id, seq: seq, status: .appended, envelope: envelope))
            }
            guard !written.isEmpty else { return results }

            try write(bytes, before: before, events: written.count)
            if durability == .everyBatch {
                do throws(SystemCallError) { try system.fsync(fd) } catch {
                    let first = chain.count + 1
                    let e = LedgerError(.notDurable, error, path: path,
                                        "the batch of \(written.count) event\(written.count == 1 ? "" : "s") (seq \(first)...\(first + written.count - 1)) "
                                            + "was written but fsync failed: it may not be on disk. This writer is now unusable: "
                                            + "reopen the log and append the batch again (its ids make that safe)")
                    state = .broken(e)
                    throw e
                }
            } else {
                unsynced = true
            }
            for line in written { chain.appendOwn(id: line.id, digest: line.digest) }
            knownSize = before + bytes.count
            return results
        }
    }

    /// Appends one event; see ``append(_:durability:)``.
    @discardableResult
    public func append(_ event: NewEvent, durability: Durability = .everyBatch) throws(LedgerError) -> AppendResult {
        let results = try append([event], durability: durability)
        guard let result = results.first else {
            throw LedgerError(.io, path: path, "the append returned no result")  // cannot happen: one event in, one result out
        }
        return result
    }

    /// Checks every event (by encoding and decoding it as a line) and the ids
    /// within the batch; fills in missing ids. Throws before any I/O.
    private func validate(_ events: [NewEvent]) throws(LedgerError) -> [String] {
        var ids: [String] = []
        ids.reserveCapacity(events.count)
        var seen: [String: Int] = [:]
        for (k, event) in events.enumerated() {
            let id = event.id ?? LedgerWriter.makeID()
            do {
                _ = try LineCodec.decodeRecord(LineCodec.encode(event.sealed(seq: 1, id: id, prev: Envelope.genesis)))
            } catch {
                throw LedgerError(invalid: error, index: k, count: events.count, id: event.id, path: path)
            }
            if let first = seen[id] {
                let e = EventError(.invalidEnvelope, member: "id",
                                   "\"\(id)\" repeats event \(first + 1) of this batch; ids must be unique within a batch")
                throw LedgerError(invalid: e, index: k, count: events.count, id: id, path: path)
            }
            seen[id] = k
            ids.append(id)
        }
        return ids
    }

    /// Writes the batch's bytes; on failure truncates back to `before`.
    private func write(_ bytes: [UInt8], before: Int, events: Int) throws(LedgerError) {
        let outcome = bytes.withUnsafeBytes { buffer in
            Result { () throws(PartialWriteError) in try system.writeAll(fd, buffer) }
        }
        guard case .failure(let failure) = outcome else { return }
        let what = "appending a batch of \(events) event\(events == 1 ? "" : "s") failed after \(failure.written) of \(bytes.count) bytes (\(failure.cause))"
        do {
            try system.ftruncate(fd, to: before)
        } catch {
            let e = LedgerError(.needsRecovery, path: path,
                                "\(what), and truncating the log back to \(before) bytes also failed (\(error)): "
                                    + "the log may end in a partial batch; reopen it to recover",
                                cause: .system(failure.cause))
            state = .broken(e)
            throw e
        }
        throw LedgerError(.io, path: path, "\(what); nothing of it was kept (the log was truncated back to \(before) bytes)",
                          cause: .system(failure.cause))
    }

    /// A random (version 4) UUID, lowercase.
    static func makeID() -> String {
        var rng = SystemRandomNumberGenerator()
        var hi: UInt64 = rng.next(), lo: UInt64 = rng.next()
        hi = (hi & ~0xF000) | 0x4000                        // version 4
        lo = (lo & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10
        func hex(_ v: UInt64, _ digits: Int) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        return "\(hex(hi >> 32, 8))-\(hex((hi >> 16) & 0xFFFF, 4))-\(hex(hi & 0xFFFF, 4))-"
            + "\(hex(lo >> 48, 4))-\(hex(lo & 0xFFFF_FFFF_FFFF, 12))"
    }
}
