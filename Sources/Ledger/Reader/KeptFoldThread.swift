import Dispatch

/// Where a read's kept values are folded when the fold runs on a thread of
/// its own (the report's read of one log: ``LogReader/readFoldEvents(progress:_:)``):
/// the pipeline's ordered thread runs the chain over a checked chunk, then
/// hands the whole chunk here by reference, and a serial queue moves its kept
/// values out to the report's fold (`fold`), in log order, where they lie (no copy into a batch:
/// a ``FoldEvent/View``'s ids are bytes of its line, which the chunk holds
/// until then). The folded chunk comes back to the reading thread, which
/// empties it (``LineChunk/reset()``) and fills it again.
///
/// So the fold's work leaves the ordered thread, which otherwise does it
/// between chunks (docs/performance.md, "the report's critical path, ninth pass").
///
/// At most `limit` chunks wait for or are in the fold (bounds memory: the
/// reading thread waits in ``hand(_:)`` beyond that). When `fold` throws, the
/// rest is not folded and ``failure`` holds the error: the read stops at
/// the next chunk handed, and throws it.
///
/// Unchecked-sendable: the reading thread calls ``hand(_:)``,
/// ``reclaim(into:)``, ``finish()`` and ``failure``; the queue runs `fold`.
/// What both touch (`returned`, `stopped`) is behind `lock`.
final class KeptFoldThread<Kept>: @unchecked Sendable {
    /// Folds a chunk's kept values (on the fold's queue, one chunk at a time,
    /// in log order): made where `Kept` is known (``LogReader/readFoldEvents(progress:_:)``),
    /// so the loop over the values and the call for each are specialized there.
    /// A closure of one value stored here would be of a generic `Kept`, called
    /// through two reabstraction thunks and a copy of each value
    /// (docs/performance.md, "the views' hand-over, tenth pass").
    private let fold: (LineChunk<Kept>) throws(LedgerError) -> Void
    /// The fold's quality of service: not below the workers'
    /// (``KeepingPipeline/workerQoS``), as the fold is ordered work.
    static var qos: DispatchQoS { .userInitiated }
    private let queue = DispatchQueue(label: "ProgressLedger.keptFold", qos: qos)
    /// Places for chunks in the fold (`hand` waits for one, the fold gives it back).
    private let slots: DispatchSemaphore
    private let lock = DispatchSemaphore(value: 1)
    /// Folded chunks, not yet emptied (taken back by the reading thread).
    private var returned: [LineChunk<Kept>] = []
    /// The first error `fold` threw (nothing is folded after it).
    private var stopped: LedgerError? = nil

    /// A fold of chunks by `fold`, at most `limit` chunks at once; `fold`
    /// moves a chunk's kept values out (``LineChunk/forEachKept(bytesAhead:_:)``).
    init(limit: Int = 4, fold: @escaping (LineChunk<Kept>) throws(LedgerError) -> Void) {
        self.fold = fold
        slots = DispatchSemaphore(value: max(limit, 1))
    }

    /// The error `fold` threw, if it did.
    var failure: LedgerError? {
        lock.wait()
        defer { lock.signal() }
        return stopped
    }

    /// Hands `chunk` (consumed by the chain: its kept values still in it) to
    /// the fold; throws the fold's error instead once `fold` has thrown.
    func hand(_ chunk: LineChunk<Kept>) throws(LedgerError) {
        if let failure { throw failure }
        slots.wait()
        queue.async { [self] in
            lock.wait()
            let failed = stopped != nil
            lock.signal()
            var error: LedgerError? = nil
            if !failed {
                do throws(LedgerError) { try fold(chunk) } catch let e { error = e }
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
