import Dispatch

extension LedgerDirectory {
    /// The number of workers for work over learner logs: the processors online.
    public static var workers: Int { System.processorCount() }

    /// Runs `body` on every item of `logs` (learner logs, or `split`'s work
    /// files), spread over `workers` threads; each worker folds its items, in
    /// `logs`' order, into a partial of its own made by `makePartial`.
    /// Returns the partials, one per worker (combine them: the learner logs
    /// hold disjoint users).
    ///
    /// A worker stops at its first error; the error of the earliest item (in
    /// `logs`' order) among them is thrown once all have stopped.
    public static func fold<Item: Sendable, Partial: Sendable>(_ logs: [Item], workers: Int = workers,
                                     makePartial: () -> Partial,
                                     _ body: @Sendable (inout Partial, Item) throws(LedgerError) -> Void) throws(LedgerError) -> [Partial] {
        let count = max(1, min(workers, logs.count))
        var partials = (0..<count).map { _ in makePartial() }
        var failures = [(index: Int, error: LedgerError)?](repeating: nil, count: count)
        partials.withUnsafeMutableBufferPointer { partialSlots in
            failures.withUnsafeMutableBufferPointer { failureSlots in
                // Worker w takes the logs w, w + count, ...: each writes only its
                // own slots, read only after concurrentPerform has returned.
                nonisolated(unsafe) let partialSlots = partialSlots, failureSlots = failureSlots
                DispatchQueue.concurrentPerform(iterations: count) { w in
                    var i = w
                    while i < logs.count {
                        do throws(LedgerError) { try body(&partialSlots[w], logs[i]) } catch {
                            failureSlots[w] = (i, error)
                            return
                        }
                        i += count
                    }
                }
            }
        }
        if let first = failures.compactMap({ $0 }).min(by: { $0.index < $1.index }) { throw first.error }
        return partials
    }
}

extension LedgerDirectory {
    /// Runs `body` on every learner log of the directory over `workers`
    /// threads, as ``fold(_:workers:makePartial:_:)`` does, but each worker
    /// takes the next log not yet taken whenever it is free, so a worker that
    /// drew large logs does not leave the other idle at the end (learner logs
    /// differ in size by two orders of magnitude). Which partial a log lands
    /// in is therefore not fixed: for folds whose partials combine in any
    /// order (`verify DIR`, `report DIR`). `body` also gets the log's place
    /// in name order (from 0).
    ///
    /// The logs are listed one folder at a time as they are handed out
    /// (``LearnerLogStream``), so memory does not grow with the directory.
    /// On errors (a log's, or a folder that cannot be listed), every log
    /// before the earliest failing one (in name order) is still folded, and
    /// that earliest error is thrown once all workers have stopped.
    package func foldAny<Partial: Sendable>(workers: Int = LedgerDirectory.workers,
                                            makePartial: () -> Partial,
                                            _ body: @Sendable (inout Partial, Int, LearnerLog) throws(LedgerError) -> Void) throws(LedgerError) -> [Partial] {
        let queue = WorkQueue(try LearnerLogStream(self))
        let count = max(1, workers)
        var partials = (0..<count).map { _ in makePartial() }
        partials.withUnsafeMutableBufferPointer { partialSlots in
            // Worker w writes only partialSlots[w], read only after concurrentPerform has returned.
            nonisolated(unsafe) let partialSlots = partialSlots
            DispatchQueue.concurrentPerform(iterations: count) { w in
                while let (i, log) = queue.next() {
                    do throws(LedgerError) { try body(&partialSlots[w], i, log) } catch {
                        queue.fail(i, error)
                    }
                }
            }
        }
        if let error = queue.failure { throw error }
        return partials
    }
}

/// The learner logs of ``LedgerDirectory/foldAny(workers:makePartial:_:)``,
/// listed and handed out one at a time under a lock (a semaphore: a handful
/// of atomic operations per learner log), and the earliest failure.
///
/// `@unchecked Sendable`: every member but `lock` is read and written only
/// between `lock.wait()` and `lock.signal()`.
private final class WorkQueue: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private let logs: LearnerLogStream
    /// The place of the next log in name order.
    private var index = 0
    /// The place of the earliest log that failed (`Int.max` before one).
    private var failed = Int.max
    private var error: LedgerError?

    init(_ logs: LearnerLogStream) { self.logs = logs }

    /// The next log and its place; nil when none is left or every one left comes after a failed one.
    func next() -> (Int, LearnerLog)? {
        lock.wait()
        defer { lock.signal() }
        guard index < failed else { return nil }
        let log: LearnerLog?
        do { log = try logs.next() } catch {
            failed = index
            self.error = error
            return nil
        }
        guard let log else { return nil }
        index += 1
        return (index - 1, log)
    }

    /// The log at `place` failed with `error`.
    func fail(_ place: Int, _ error: LedgerError) {
        lock.wait()
        defer { lock.signal() }
        if place < failed { failed = place; self.error = error }
    }

    /// The earliest failure.
    var failure: LedgerError? {
        lock.wait()
        defer { lock.signal() }
        return error
    }
}
