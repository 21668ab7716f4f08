import Events
import Ledger

/// The appends waiting for the store's next group commit (guarded by the store's lock).
struct WaitingAppends {
    /// One caller of `append`, suspended until its batch is durable.
    struct Caller {
        var events: [NewEvent]
        var done: CheckedContinuation<Result<[AppendResult], LedgerError>, Never>
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
    /// (the first caller always), leaving for a later group any caller whose
    /// ids are already in this one (the writer would refuse the repeat; in the
    /// next group it is `.alreadyPresent`). Nil, and no longer draining, when nothing waits.
    mutating func nextGroup(limit: Int) -> [Caller]? {
        guard !pending.isEmpty else {
            draining = false
            return nil
        }
        var group: [Caller] = []
        var later: [Caller] = []
        var ids = Set<String>()
        var count = 0
        for caller in pending {
            let own = caller.events.compactMap(\.id)
            if group.isEmpty || (count + caller.events.count <= limit && own.allSatisfy { !ids.contains($0) }) {
                group.append(caller)
                ids.formUnion(own)
                count += caller.events.count
            } else {
                later.append(caller)
            }
        }
        pending = later
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
