import Dispatch
import Events
import Projections

/// Builds a ``Report`` from records or fold events on a thread of its own,
/// in the order they are added: for a reader whose own thread is the
/// bottleneck (an app or a server reading a large log, the `report` command).
/// A record is made a `FoldEvent` as it is added. (The report of one log
/// folds `LogReader.readFoldEvents`' views instead, on the reader's own
/// fold thread: their ids are bytes of lines in the reader's chunks, which
/// are handed over whole and filled again only once folded.)
///
/// ```swift
/// let fold = ReportFold(from: nil, to: nil)
/// try LogReader(path: logPath).read { fold.add($0) }   // cheap: the record joins a batch
/// let report = fold.report()                  // waits for the fold, then builds
/// ```
///
/// ``add(_:)`` only moves the record into a batch; full batches go to a serial
/// queue that folds them into a ``ReportBuilder`` in order and releases them
/// there. At most `batchesInFlight` batches wait, so memory stays bounded
/// whichever side is faster. One thread adds (records must come in log order).
///
/// `@unchecked Sendable`, and why that is sound: `builder` is read and
/// written only by work items of the serial `queue` (one at a time, in the
/// order queued) and by ``report()`` through `queue.sync`, which runs after
/// every item queued before it; `batch` is touched only by the adding thread
/// (``add(_:)``, ``add(_:readAt:)``, ``report()``, `flush`), and `seen` by
/// ``add(_:readAt:)`` alone; `spare` only under `spareLock`; a
/// batch is owned by the adding thread until it is handed to the queue, and
/// by the queue until it is put back in `spare`. The other members are
/// constants.
package final class ReportFold: @unchecked Sendable {
    /// Events handed from the adding thread to the queue (one owner at a time),
    /// in memory of its own so the queue can move each one out.
    private final class Batch: @unchecked Sendable {
        private let base: UnsafeMutablePointer<FoldEvent>
        let capacity: Int
        private(set) var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            base = UnsafeMutablePointer<FoldEvent>.allocate(capacity: capacity)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        var isFull: Bool { count == capacity }

        /// Moves an event in (the batch is not full).
        func append(_ event: consuming FoldEvent) {
            (base + count).initialize(to: consume event)
            count += 1
        }

        /// Moves every event out, in order, into `body`; leaves the batch empty.
        func drain(_ body: (FoldEvent) -> Void) {
            for i in 0..<count { body((base + i).move()) }
            count = 0
        }
    }

    private var builder: ReportBuilder
    private let queue = DispatchQueue(label: "progress-ledger.report-fold")
    private let room: DispatchSemaphore
    private var batch: Batch
    /// Drained batches, for reuse.
    private var spare: [Batch] = []
    /// The events added through ``add(_:readAt:)``, by id.
    private var seen = SeenEvents()
    private let spareLock = DispatchSemaphore(value: 1)

    /// An empty report of the days `from` ... `to` (see ``ReportBuilder/init(from:to:)``),
    /// folded `batchSize` records at a time with at most `batchesInFlight` batches waiting.
    package init(from: Day? = nil, to: Day? = nil, batchSize: Int = 512, batchesInFlight: Int = 4) {
        builder = ReportBuilder(from: from, to: to)
        room = DispatchSemaphore(value: max(1, batchesInFlight))
        batch = Batch(capacity: max(1, batchSize))
    }

    /// Queues one record of a log, in log order (a newer-version line's is skipped).
    package func add(_ record: consuming Record) {
        guard case .event(let e) = record else { return }
        add(FoldEvent.make(e))
    }

    /// Queues one event of a log, in log order; it is moved, not copied.
    package func add(_ event: consuming FoldEvent) {
        batch.append(event)
        if batch.isFull { flush() }
    }

    /// Queues one record of one of several logs read in turn (the spec's
    /// `report LOG...`): an event whose id was already added through this
    /// method is not counted again, since it counts where it was read first.
    /// `place` (`FILE:SEQ`) names where it was read. Returns `.new` (queued),
    /// `.repeated` (the same event again: skipped) or `.conflicting(earlier:)`
    /// (an id read at `earlier` with other content: skipped; warn the user).
    @discardableResult
    package func add(_ record: consuming Record, readAt place: String) -> SeenEvents.Verdict {
        let verdict = seen.check(record, at: place)
        if verdict == .new { add(record) }
        return verdict
    }

    /// Waits until every record added has been folded; returns the report of them.
    package func report() -> Report {
        flush()
        return queue.sync { builder.report() }
    }

    private func flush() {
        guard batch.count > 0 else { return }
        let full = batch
        spareLock.wait()
        batch = spare.popLast() ?? Batch(capacity: full.capacity)
        spareLock.signal()
        room.wait()
        queue.async { [self] in
            Self.drain(full, into: &builder)
            spareLock.wait()
            spare.append(full)
            spareLock.signal()
            room.signal()
        }
    }

    /// Folds a batch's events in order (one access to `builder` for the whole batch).
    private static func drain(_ batch: Batch, into builder: inout ReportBuilder) {
        batch.drain { builder.add($0) }
    }
}
