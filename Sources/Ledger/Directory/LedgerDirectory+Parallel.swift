import Dispatch

extension LedgerDirectory {
    /// The number of workers for work over learner logs: the processors online.
    public static var workers: Int { System.processorCount() }

    /// Runs `body` on every learner log of `logs`, spread over `workers`
    /// threads; each worker folds its logs, in `logs`' order, into a partial
    /// of its own made by `makePartial`. Returns the partials, one per worker
    /// (combine them: the learner logs hold disjoint users).
    ///
    /// A worker stops at its first error; the error of the earliest learner
    /// log (in `logs`' order) among them is thrown once all have stopped.
    public static func fold<Partial: Sendable>(_ logs: [LearnerLog], workers: Int = workers,
                                     makePartial: () -> Partial,
                                     _ body: @Sendable (inout Partial, LearnerLog) throws(LedgerError) -> Void) throws(LedgerError) -> [Partial] {
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
