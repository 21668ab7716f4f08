import Events

/// Appending batches.
extension LedgerWriter {
    /// Appends a batch of events: all or nothing.
    ///
    /// Every event is validated first; an invalid one refuses the whole batch
    /// (`.invalidEvent`) and writes nothing. An event whose id is already in the
    /// log (or earlier in the batch) with the same content (`LineCodec.sameContent`)
    /// is not written again: its result is `.alreadyPresent` with the seq it has;
    /// with different content the whole batch is refused (`.conflictingDuplicate`,
    /// naming the id and its seq) and nothing is written. The earlier line is
    /// read back only when an id repeats. Missing ids become UUIDs. The
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
        return try append(PreparedEvents(events, path: path), durability: durability)
    }

    /// Appends a batch prepared (checked and encoded) beforehand, maybe on
    /// another thread, maybe joined from several callers' batches: the rest of
    /// `append(_:durability:)` with events (ids repeated across joined batches
    /// are looked for here). An error's `eventIndex` is the position in the
    /// whole batch.
    @discardableResult
    package func append(_ batch: PreparedEvents, durability: Durability = .everyBatch) throws(LedgerError) -> [AppendResult] {
        try checkUsable()
        guard batch.count > 0 else { return [] }
        let joined = try batch.joinedRepeats(path: path)
        return try withLock { () throws(LedgerError) -> [AppendResult] in
            try catchUp()
            return try seal(batch, joined: joined, durability: durability)
        }
    }

    /// Appends a batch whose lines were sealed ahead (`SealedBatch`), as
    /// `append(_:durability:)` appends its events: when, under the lock and
    /// caught up, the log's head is the batch's base and no id of the batch is
    /// in the log or repeats within it (the common case), its bytes are written
    /// as they are; otherwise the batch is sealed here. The results, errors and
    /// durability are the same either way.
    @discardableResult
    package func append(_ sealed: SealedBatch, durability: Durability = .everyBatch) throws(LedgerError) -> [AppendResult] {
        try checkUsable()
        guard sealed.count > 0 else { return [] }
        let batch = sealed.prepared
        let joined = try batch.joinedRepeats(path: path)
        let repeats = joined?.contains { $0 != nil } ?? false
        return try withLock { () throws(LedgerError) -> [AppendResult] in
            try catchUp()
            guard let base = sealed.base, sealed.isSealed, !repeats, chain.head == base,
                  !batch.items.contains(where: { chain.ids.seq(of: $0.id, hash: $0.hash) != nil })
            else { return try seal(batch, joined: joined, durability: durability) }
            var results: [AppendResult] = []
            results.reserveCapacity(batch.count)
            var prev = base.sha256
            for k in batch.items.indices {
                var result = AppendResult(id: batch.items[k].id, seq: base.seq + k + 1, sealing: batch.events, at: k)
                result.setPrev(prev)
                prev = sealed.digests[k]
                results.append(result)
            }
            try write(sealed.bytes, digests: sealed.digests, of: results, batch, durability: durability)
            return results
        }
    }

    /// Under the lock, caught up: the new lines of `batch` after the log's
    /// last line (`Chain.seal`, the one rule), written.
    private func seal(_ batch: PreparedEvents, joined: [Int?]?, durability: Durability) throws(LedgerError) -> [AppendResult] {
        let sealed = try chain.seal(batch, joined: joined, path: path) { (seq) throws(LedgerError) in try lineBytes(seq: seq) }
        guard !sealed.digests.isEmpty else { return sealed.results }
        try write(sealed.bytes, digests: sealed.digests, of: sealed.results, batch, durability: durability)
        return sealed.results
    }

    /// Under the lock, caught up: writes the sealed lines of `batch`'s new
    /// events (`results`' `.appended` ones, whose lines hash to `digests`) with
    /// one write, fsyncs them (`.everyBatch`), and records them in the chain.
    private func write(_ bytes: [UInt8], digests: [SHA256.Digest], of results: [AppendResult], _ batch: PreparedEvents,
                       durability: Durability) throws(LedgerError) {
        let before = knownSize
        try write(bytes, before: before, events: digests.count)
        if durability == .everyBatch {
            try syncBatch(count: digests.count)
        } else {
            unsynced = true
        }
        var d = 0
        var start = before
        for k in results.indices where results[k].status == .appended {
            chain.appendOwn(id: results[k].id, hash: batch.items[k].hash, digest: digests[d])
            lineStarts.append(start)
            start += batch.items[k].line.length(seq: results[k].seq) + 1
            d += 1
        }
        knownSize = before + bytes.count
    }

    /// Appends one event; see `append(_:durability:)` with an array.
    @discardableResult
    public func append(_ event: NewEvent, durability: Durability = .everyBatch) throws(LedgerError) -> AppendResult {
        let results = try append([event], durability: durability)
        guard let result = results.first else {
            throw LedgerError(.io, path: path, "the append returned no result")  // cannot happen: one event in, one result out
        }
        return result
    }

    /// The bytes of line `seq` (which this writer has seen), read back from the file.
    func lineBytes(seq: Int) throws(LedgerError) -> [UInt8] {
        let start = lineStarts[seq - 1]
        let end = seq < lineStarts.count ? lineStarts[seq] - 1 : knownSize - 1
        var bytes = [UInt8](repeating: 0, count: end - start)
        let read: Int
        do { read = try system.readFully(fd, into: &bytes, at: start) } catch {
            throw LedgerError(error, path: path, doing: "reading line \(seq) back")
        }
        guard read == bytes.count else { throw LedgerError(.replaced, path: path, "line \(seq) could not be read back: the log is shorter than before") }
        return bytes
    }

    /// fsyncs the batch of `count` lines just written after line `chain.count`;
    /// a failure makes the writer unusable (`.notDurable`).
    func syncBatch(count: Int) throws(LedgerError) {
        let start = System.monotonicNanoseconds()
        defer { lastFsyncNanoseconds = System.monotonicNanoseconds() - start }
        do throws(SystemCallError) { try system.fsync(fd) } catch {
            let e = notDurable(error, first: chain.count + 1, count: count)
            state = .broken(e)
            throw e
        }
    }

    /// The error of a failed `fsync` of the batch of `count` lines from seq `first`.
    func notDurable(_ error: SystemCallError, first: Int, count: Int) -> LedgerError {
        LedgerError(.notDurable, error, path: path,
                    "the batch of \(count) event\(count == 1 ? "" : "s") (seq \(first)...\(first + count - 1)) "
                        + "was written but fsync failed: it may not be on disk. This writer is now unusable: "
                        + "reopen the log and append the batch again (its ids make that safe)")
    }

    /// Writes the batch's bytes; on failure truncates back to `before`.
    func write(_ bytes: [UInt8], before: Int, events: Int) throws(LedgerError) {
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
        // 8-4-4-4-12 lowercase hex digits, written in place.
        return String(unsafeUninitializedCapacity: 36) { out in
            var k = 0
            func put(_ v: UInt64, _ digits: Int) {
                for d in stride(from: digits - 1, through: 0, by: -1) {
                    let nibble = UInt8(truncatingIfNeeded: v >> UInt64(4 * d)) & 0xF
                    out[k] = nibble &+ (nibble < 10 ? UInt8(ascii: "0") : UInt8(ascii: "a") &- 10)
                    k += 1
                }
            }
            func dash() { out[k] = UInt8(ascii: "-"); k += 1 }
            put(hi >> 32, 8); dash(); put(hi >> 16, 4); dash(); put(hi, 4); dash(); put(lo >> 48, 4); dash(); put(lo, 12)
            return k
        }
    }
}
