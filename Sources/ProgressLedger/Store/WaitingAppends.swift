import Events
import Ledger

/// The appends waiting for the store's next group commit (guarded by the store's lock).
struct WaitingAppends {
    /// One caller of `append`, suspended until its batch is durable.
    struct Caller {
        /// Its batch, checked and encoded on the caller's thread.
        var events: PreparedEvents
        /// Resumed with the batch's results (a slice of the group's) or its error.
        var done: CheckedContinuation<Result<ArraySlice<AppendResult>, LedgerError>, Never>
    }

    /// In arrival order.
    var pending: [Caller] = []
    /// Whether the commit thread is writing groups (the next append then just waits).
    var draining = false
    /// Set when appends are refused (a failed fsync, a closed store): why.
    var refusal: String?
    /// The groups taken so far and their sizes (for the benchmark and the tests).
    var counts = GroupCounts()

    /// The callers of the next group, in arrival order, up to `limit` events
    /// (the first caller always). Nil, and no longer draining, when nothing
    /// waits. Two callers may send the same id: the writer sees the group as
    /// one batch and answers the later one as it would in the next group
    /// (`.alreadyPresent` at the first one's seq, or `.conflictingDuplicate`).
    mutating func nextGroup(limit: Int) -> [Caller]? {
        guard !pending.isEmpty else {
            draining = false
            return nil
        }
        var taken = 0, count = 0
        while taken < pending.count, taken == 0 || count + pending[taken].events.count <= limit {
            count += pending[taken].events.count
            taken += 1
        }
        var group: [Caller] = []
        if taken == pending.count {
            swap(&group, &pending)
        } else {
            group = Array(pending[..<taken])
            pending.removeFirst(taken)
        }
        counts.add(events: count)
        return group
    }

    /// Refuses every later append.
    mutating func refuse(because reason: String) {
        if refusal == nil { refusal = reason }
    }
}

/// How many groups a store wrote and how large they were: what the
/// benchmark prints beside its throughput (group commit works when groups are large).
package struct GroupCounts: Sendable, Hashable {
    /// Groups taken by the commit thread (each one write and one `fsync`, unless a caller's event was refused).
    package var groups = 0
    /// Events in them.
    package var events = 0
    /// The most events one group held.
    package var largest = 0

    /// The mean number of events per group (0 before the first).
    package var mean: Double { groups == 0 ? 0 : Double(events) / Double(groups) }

    /// Counts one group of `events` events.
    mutating func add(events n: Int) {
        groups += 1
        events += n
        largest = max(largest, n)
    }
}
