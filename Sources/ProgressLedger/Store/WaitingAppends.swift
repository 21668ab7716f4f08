import Events
import Ledger

/// The appends waiting for the store's next group commit (guarded by the
/// store's lock); when the next group starts is `GroupStart`'s rule.
struct WaitingAppends {
    /// One caller of `append`, suspended until its batch is durable.
    struct Caller {
        /// How many events its batch holds (they are in the group's batch, in caller order).
        var count: Int
        /// Resumed with the batch's results (a slice of the group's) or its error.
        var done: CheckedContinuation<Result<ArraySlice<AppendResult>, LedgerError>, Never>
        /// The caller's task priority: the round's marker runs at the lowest of a group's.
        var priority: TaskPriority
    }

    /// Callers and their events, written together.
    struct Group {
        /// In arrival order.
        var callers: [Caller] = []
        /// Their events, caller after caller: joined, and their lines sealed,
        /// as each caller arrives (on its thread, not the commit thread's),
        /// on top of the group before, which may be on disk meanwhile.
        var events: SealedBatch
    }

    /// The callers waiting, in arrival order, with their events.
    private(set) var pending: Group
    /// When the commit thread starts the next group.
    var start = GroupStart()
    /// Set when appends are refused (a failed fsync, a closed store): why.
    var refusal: String?
    /// The groups taken so far and their sizes (for the benchmark and the tests).
    var counts = GroupCounts()

    /// Nothing waits; the first caller's lines will be sealed after `head` (the log's).
    init(head: Head) {
        pending = Group(events: SealedBatch(on: head))
    }

    /// Files a caller and its `count` checked, encoded events (`join` adds
    /// them to the pending batch, which seals their lines); true when the
    /// commit thread is to start a group now.
    mutating func arrive(count: Int, _ join: (inout SealedBatch) -> Void,
                         done: CheckedContinuation<Result<ArraySlice<AppendResult>, LedgerError>, Never>,
                         priority: TaskPriority, limit: Int) -> Bool {
        pending.callers.append(Caller(count: count, done: done, priority: priority))
        join(&pending.events)
        return start.arrived(waiting: pending.callers.count, full: pending.events.count >= limit)
    }

    /// After a group of `callers` callers: nil to write the next group at
    /// once, else the round the commit thread's marker is to report.
    mutating func groupWritten(callers: Int, limit: Int) -> Int? {
        start.groupWritten(callers: callers, waiting: pending.callers.count, full: pending.events.count >= limit)
    }

    /// Round `round` passed: true when the commit thread is to start a group now.
    mutating func roundPassed(_ round: Int) -> Bool {
        start.roundPassed(round, waiting: pending.callers.count)
    }

    /// The callers of the next group, in arrival order, up to `limit` events
    /// (the first caller always); nil, and idle, when nothing waits. Two callers
    /// may send the same id: the writer sees the group as one batch and answers
    /// the later one as it would in the next group (`.alreadyPresent` at the
    /// first one's seq, or `.conflictingDuplicate`).
    mutating func nextGroup(limit: Int) -> Group? {
        guard !pending.callers.isEmpty else {
            start.nothingWaits()
            return nil
        }
        // The callers left waiting seal their lines on the group's last one.
        var group = Group(events: SealedBatch(on: nil))
        if pending.events.count <= limit {
            swap(&group, &pending)
            pending.events = SealedBatch(on: group.events.tip)
        } else {
            var taken = 0, count = 0
            while taken < pending.callers.count, taken == 0 || count + pending.callers[taken].count <= limit {
                count += pending.callers[taken].count
                taken += 1
            }
            group.callers = Array(pending.callers[..<taken])
            pending.callers.removeFirst(taken)
            group.events = pending.events.removeFirst(count)
        }
        counts.add(events: group.events.count)
        return group
    }

    /// After a group: seals the waiting callers' lines again on `head`, the
    /// log's head now, unless they are sealed on it already (the common case:
    /// the group was written as it was sealed).
    mutating func sealPending(on head: Head) {
        guard pending.events.base != head || !pending.events.isSealed else { return }
        pending.events.reseal(on: head)
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
    /// Groups written as their callers sealed them, while the group before
    /// was on disk (the others were sealed again by the writer: an id already
    /// in the log, another writer's lines, a failure).
    package var sealedAhead = 0

    /// The mean number of events per group (0 before the first).
    package var mean: Double { groups == 0 ? 0 : Double(events) / Double(groups) }

    /// Counts one group of `events` events.
    mutating func add(events n: Int) {
        groups += 1
        events += n
        largest = max(largest, n)
    }
}

/// When the store's commit thread starts the next group: the one rule.
///
/// After a group's `fsync` the commit thread resumes its callers; most of them
/// append again at once, but on the cooperative pool's threads, after the
/// commit thread would already have taken the next group, which would then
/// hold only the callers already waiting (64 tasks made groups of ~33, two
/// halves taking turns). So after a group the next one does not start at
/// once: it starts when every caller known to be busy appending is back (as
/// many callers wait as the group had plus those already waiting then, so
/// that halves merge into one group), or when the callers resumed have had
/// their turn on the pool (a marker task queued behind them, at the lowest of
/// their priorities, reports the round: a caller that does not append again
/// holds nobody up), or when a group's worth of events waits. Never on a
/// timer: an append finding the store idle starts a group at once, and a
/// lone caller's next append fills its group of one.
struct GroupStart: Equatable {
    /// What the commit thread is doing.
    enum Phase: Equatable {
        /// Nothing: the next append starts a group at once.
        case idle
        /// Writing a group, or about to: appends wait for the next one.
        case writing
        /// The last group's callers were resumed: the next group starts when
        /// `target` callers wait, or when round `round` has passed.
        case gathering(target: Int, round: Int)
    }

    private(set) var phase = Phase.idle
    /// The rounds begun so far (a marker of an earlier round changes nothing).
    private var rounds = 0

    /// A caller arrived; `waiting` callers wait now, it included (`full`: with
    /// a group's worth of events). True when the commit thread is to start a
    /// group now.
    mutating func arrived(waiting: Int, full: Bool = false) -> Bool {
        switch phase {
        case .idle:
            phase = .writing
            return true
        case .writing:
            return false
        case .gathering(let target, _):
            guard waiting >= target || full else { return false }
            phase = .writing
            return true
        }
    }

    /// A group of `callers` callers was written (they are about to be
    /// resumed) while `waiting` callers came (`full`: with a group's worth of
    /// events): nil when the next group is to be written at once, else the
    /// round the commit thread's marker is to report.
    mutating func groupWritten(callers: Int, waiting: Int, full: Bool = false) -> Int? {
        if full {
            phase = .writing
            return nil
        }
        rounds += 1
        phase = .gathering(target: callers + waiting, round: rounds)
        return rounds
    }

    /// The commit thread found nothing to write: the next append starts a group at once.
    mutating func nothingWaits() {
        phase = .idle
    }

    /// The callers resumed after round `round`'s group had their turn, and
    /// `waiting` callers wait: true when the commit thread is to start a group
    /// now; with nothing waiting, the store is idle again.
    mutating func roundPassed(_ round: Int, waiting: Int) -> Bool {
        guard case .gathering(_, round) = phase else { return false }
        if waiting == 0 {
            phase = .idle
            return false
        }
        phase = .writing
        return true
    }
}
