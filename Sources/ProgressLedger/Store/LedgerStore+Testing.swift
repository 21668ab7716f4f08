import Dispatch

/// Seams for the store's tests.
extension LedgerStore {
    /// Holds every later group back until the returned function is called, so
    /// that the appends made meanwhile form one group (waits while a group is being written).
    package func holdCommits() -> @Sendable () -> Void { holdGroups() }

    /// How many appends wait for the next group.
    package var waitingCount: Int { waitingCallers }

    /// The groups written so far and their sizes.
    package var groupCounts: GroupCounts { takenGroups }
}
