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
        return group
    }

    /// Refuses every later append.
    mutating func refuse(because reason: String) {
        if refusal == nil { refusal = reason }
    }
}
