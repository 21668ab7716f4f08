import Dispatch
import Events

/// Folds records on a thread of its own, in the order they are added.
///
/// The log reader calls its body on the one thread that keeps the log in
/// order (the chain checks run there), and that thread is the reader's
/// bottleneck: a fold done in the body adds its whole cost to it, and so does
/// releasing each record's strings when the body returns. Here the body only
/// appends the record to a batch; full batches go to a serial queue that
/// folds them in order and releases them. At most `batchesInFlight` batches
/// wait, so memory stays bounded whichever side is faster.
///
/// Unchecked-sendable: `state` is touched only by the work items of `queue`
/// (one at a time, in order) until ``finish()`` waits for them; `batch` only
/// by the adding thread; `spare` under `spareLock`.
final class BackgroundFold<State: Sendable>: @unchecked Sendable {
    /// Records handed from the adding thread to the queue (one owner at a time),
    /// in memory of its own so the queue can move each one out: no retain and
    /// release of every string again, as lending them from an array would cost.
    private final class Batch: @unchecked Sendable {
        private let base: UnsafeMutablePointer<Record>
        let capacity: Int
        private(set) var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            base = UnsafeMutablePointer<Record>.allocate(capacity: capacity)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        var isFull: Bool { count == capacity }

        /// Moves a record in (the batch is not full).
        func append(_ record: consuming Record) {
            (base + count).initialize(to: consume record)
            count += 1
        }

        /// Moves every record out, in order, into `body`; leaves the batch empty.
        func drain(_ body: (Record) -> Void) {
            for i in 0..<count { body((base + i).move()) }
            count = 0
        }
    }

    private var state: State
    private let fold: @Sendable (inout State, Record) -> Void
    private let queue = DispatchQueue(label: "progress-ledger.fold")
    private let room: DispatchSemaphore
    private var batch: Batch
    /// Drained batches, for reuse (touched on `queue` and, once it is idle, by the adding thread).
    private var spare: [Batch] = []
    private let spareLock = DispatchSemaphore(value: 1)

    /// Folds into `state` with `fold`, `batchSize` records at a time.
    init(_ state: State, batchSize: Int = 512, batchesInFlight: Int = 4,
         fold: @escaping @Sendable (inout State, Record) -> Void) {
        self.state = state
        self.fold = fold
        room = DispatchSemaphore(value: batchesInFlight)
        batch = Batch(capacity: max(1, batchSize))
    }

    /// Queues one record (log order is kept); it is moved, not copied.
    func add(_ record: consuming Record) {
        batch.append(record)
        if batch.isFull { flush() }
    }

    /// Waits until every record added has been folded; returns the state.
    func finish() -> State {
        flush()
        return queue.sync { state }
    }

    private func flush() {
        guard batch.count > 0 else { return }
        let full = batch
        spareLock.wait()
        batch = spare.popLast() ?? Batch(capacity: full.capacity)
        spareLock.signal()
        room.wait()
        queue.async { [self] in
            Self.drain(full, into: &state, fold)
            spareLock.wait()
            spare.append(full)
            spareLock.signal()
            room.signal()
        }
    }

    /// Folds a batch's records in order (one access to `state` for the batch).
    private static func drain(_ batch: Batch, into state: inout State, _ fold: (inout State, Record) -> Void) {
        batch.drain { fold(&state, $0) }
    }
}
