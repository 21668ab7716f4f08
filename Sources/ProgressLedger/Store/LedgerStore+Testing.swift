import Dispatch

/// Seams for the store's tests.
extension LedgerStore {
    /// Holds the commit thread until the returned function is called, so that
    /// the appends made meanwhile form one group.
    package func holdCommits() -> @Sendable () -> Void {
        let gate = DispatchSemaphore(value: 0)
        commitQueue.async { gate.wait() }
        return { gate.signal() }
    }

    /// How many appends wait for the next group.
    package var waitingCount: Int { waitingCallers }

    /// The groups written so far and their sizes.
    package var groupCounts: GroupCounts { takenGroups }
}
