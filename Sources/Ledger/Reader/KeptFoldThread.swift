import Dispatch

/// Where a read's kept values are folded when the fold runs on a thread of
/// its own (the report's read of one log: ``LogReader/readFoldEvents(progress:_:)``):
/// the pipeline's ordered thread runs the chain over a checked chunk, then
/// hands the whole chunk here by reference, and a serial queue moves its kept
/// values out to `add`, in log order, where they lie (no copy into a batch:
/// a ``FoldEvent/View``'s ids are bytes of its line, which the chunk holds
/// until then). The folded chunk comes back to the reading thread, which
/// empties it (``LineChunk/reset()``) and fills it again.
///
/// So the fold's work leaves the ordered thread, which otherwise does it
/// between chunks (docs/performance.md, "the report's critical path, ninth pass").
///
/// At most `limit` chunks wait for or are in the fold (bounds memory: the
/// reading thread waits in ``hand(_:)`` beyond that). When `add` throws, the
/// rest is not folded and ``failure`` holds the error: the read stops at
/// the next chunk handed, and throws it.
///
/// Unchecked-sendable: the reading thread calls ``hand(_:)``,
/// ``reclaim(into:)``, ``finish()`` and ``failure``; the queue runs `add`.
/// What both touch (`returned`, `stopped`) is behind `lock`.
final class KeptFoldThread<Kept>: @unchecked Sendable {
    /// Folds one kept value (on the fold's queue, one at a time, in log order).
    private let add: (consuming Kept) throws(LedgerError) -> Void
    private let queue = DispatchQueue(label: "ProgressLedger.keptFold", qos: .userInitiated)
    /// Places for chunks in the fold (`hand` waits for one, the fold gives it back).
    private let slots: DispatchSemaphore
    private let lock = DispatchSemaphore(value: 1)
    /// Folded chunks, not yet emptied (taken back by the reading thread).
    private var returned: [LineChunk<Kept>] = []
    /// The first error `add` threw (nothing is folded after it).
    private var stopped: LedgerError? = nil
    /// How many bytes of a view's line the fold prefetches, and how many views ahead.
    private let bytesAhead: Int

    /// A fold of kept values by `add`, at most `limit` chunks at once;
    /// `bytesAhead` > 0: the lines of the values that many further are
    /// prefetched (the values point into them).
    init(limit: Int = 4, bytesAhead: Int = 8, add: @escaping (consuming Kept) throws(LedgerError) -> Void) {
        self.add = add
        self.bytesAhead = bytesAhead
        slots = DispatchSemaphore(value: max(limit, 1))
    }

    /// The error `add` threw, if it did.
    var failure: LedgerError? {
        lock.wait()
        defer { lock.signal() }
        return stopped
    }

    /// Hands `chunk` (consumed by the chain: its kept values still in it) to
    /// the fold; throws the fold's error instead once `add` has thrown.
    func hand(_ chunk: LineChunk<Kept>) throws(LedgerError) {
        if let failure { throw failure }
        slots.wait()
        queue.async { [self] in
            lock.wait()
            let failed = stopped != nil
            lock.signal()
            var error: LedgerError? = nil
            if !failed {
                do throws(LedgerError) { try chunk.forEachKept(bytesAhead: bytesAhead, add) } catch let e { error = e }
            }
            lock.wait()
            if let error, stopped == nil { stopped = error }
            returned.append(chunk)
            lock.signal()
            slots.signal()
        }
    }

    /// Moves the folded chunks, emptied, to `spares` (for the reading thread
    /// to fill again): taken back all at once, so that none holds its read
    /// buffers longer than it must (a held buffer is not read into again).
    func reclaim(into spares: inout [LineChunk<Kept>]) {
        lock.wait()
        let chunks = returned
        returned.removeAll(keepingCapacity: true)
        lock.signal()
        for chunk in chunks {
            chunk.reset()
            spares.append(chunk)
        }
    }

    /// Waits until every chunk handed is folded (a read must not end, nor
    /// its buffers go, before).
    func finish() {
        queue.sync {}
    }
}
