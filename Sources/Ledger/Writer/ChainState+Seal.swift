import Events

/// A batch's new lines, sealed after a chain's last line: what a writer
/// stores (a log file's one write, a database's rows), and the results it answers with.
package struct SealedLines {
    /// Each event's result (`.appended` at its new seq, or `.alreadyPresent`).
    package let results: [AppendResult]
    /// The new lines, each ending in LF, one after the other.
    package let bytes: [UInt8]
    /// Each new line's SHA-256 (without its LF), in order.
    let digests: [SHA256.Digest]
    /// The batch they were sealed from (its ids and their hashes).
    let batch: PreparedEvents

    /// Each new line: its seq and its bytes without the LF.
    package var lines: [(seq: Int, bytes: ArraySlice<UInt8>)] {
        var lines: [(seq: Int, bytes: ArraySlice<UInt8>)] = []
        lines.reserveCapacity(digests.count)
        var at = 0
        for k in results.indices where results[k].status == .appended {
            let length = batch.items[k].line.length(seq: results[k].seq)
            lines.append((results[k].seq, bytes[at..<(at + length)]))
            at += length + 1
        }
        return lines
    }
}

extension Chain where IDs == IDIndex {
    /// The one rule for what a batch appends after this chain's last line:
    /// which events are new (`joined`: each event's earlier event with its id
    /// in a joined batch, nil when each item's `repeatOf` is known), which
    /// repeat an id of the log (`lineBytes` reads that earlier line back, for
    /// `LineCodec.sameContent`; different content refuses the batch,
    /// `.conflictingDuplicate`), and the new lines sealed at their seq. The
    /// chain is not changed: ``recordOwn(_:)`` records the lines once stored.
    func seal(_ batch: PreparedEvents, joined: [Int?]?, path: String,
              lineBytes: (Int) throws(LedgerError) -> [UInt8]) throws(LedgerError) -> SealedLines {
        let events = batch.events
        var results: [AppendResult] = []
        results.reserveCapacity(events.count)
        // Which events are new, at which seq, and the batch's size: all known before a byte is made.
        var seq = count
        var size = 0
        for k in events.indices {
            let id = batch.items[k].id
            if let first = joined.map({ $0[k] }) ?? batch.items[k].repeatOf {
                // The same event twice in the batch (checked in `prepare`): the seq of its first.
                results.append(AppendResult(id: id, seq: results[first].seq, status: .alreadyPresent))
                continue
            }
            if let existing = ids.seq(of: id, hash: batch.items[k].hash) {
                // Read the earlier line back only now that the id repeats.
                guard LineCodec.sameContent(try lineBytes(existing), batch.items[k].line.template) else {
                    throw LedgerError(conflicting: id, index: k, count: events.count, where: "line \(existing) (seq \(existing))", path: path)
                }
                results.append(AppendResult(id: id, seq: existing, status: .alreadyPresent))
                continue
            }
            seq += 1
            let length = batch.items[k].line.length(seq: seq)
            guard length <= LineCodec.maxLineLength else {
                let e = EventError(.lineTooLong, "the event's line would be \(length) bytes; at most \(LineCodec.maxLineLength) are allowed")
                throw LedgerError(invalid: e, index: k, count: events.count, id: id, path: path)
            }
            size += length + 1
            results.append(AppendResult(id: id, seq: seq, sealing: events, at: k))
        }
        let newLines = seq - count
        guard newLines > 0 else { return SealedLines(results: results, bytes: [], digests: [], batch: batch) }

        // The lines: each sealed at its seq after the previous line.
        var digests: [SHA256.Digest] = []
        digests.reserveCapacity(newLines)
        var prev = last
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            var at = 0
            for k in results.indices where results[k].status == .appended {
                results[k].setPrev(prev)
                prev = batch.items[k].line.seal(seq: results[k].seq, after: prev, to: base + at)
                digests.append(prev)
                at += batch.items[k].line.length(seq: results[k].seq) + 1
            }
            initialized = at
        }
        return SealedLines(results: results, bytes: bytes, digests: digests, batch: batch)
    }

    /// Records the lines of `sealed` (sealed by ``seal(_:joined:path:lineBytes:)``
    /// after this chain's last line) once they are stored.
    mutating func recordOwn(_ sealed: SealedLines) {
        var d = 0
        for k in sealed.results.indices where sealed.results[k].status == .appended {
            appendOwn(id: sealed.results[k].id, hash: sealed.batch.items[k].hash, digest: sealed.digests[d])
            d += 1
        }
    }
}
