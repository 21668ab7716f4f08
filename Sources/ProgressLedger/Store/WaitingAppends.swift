import Events
import Ledger

/// The store's group commit as it stands (guarded by the store's lock): the
/// appends waiting for the next group, and the groups written whose `fsync`
/// runs (on disk), acknowledged in the order they were written. When the next
/// group starts is `GroupStart`'s rule.
struct WaitingAppends {
    /// What a caller of `append` is resumed with: its batch's results (a slice of the group's) or its error.
    typealias Outcome = Result<ArraySlice<AppendResult>, LedgerError>

    /// One caller of `append`, suspended until its batch is durable.
    struct Caller {
        /// How many events its batch holds (they are in the group's batch, in caller order).
        var count: Int
        /// Resumed once, with its outcome.
        var done: UnsafeContinuation<Outcome, Never>
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

    /// A group written, waiting for its `fsync` (and for the groups written
    /// before it) to be acknowledged.
    struct Flight {
        /// Its place in write order (from 0).
        var number: Int
        var callers: [Caller]
        /// Each caller's outcome as the write left it.
        var outcomes: [Outcome]
        /// Whether it wrote lines (an `fsync` runs for it).
        var wroteLines: Bool
        /// Whether its `fsync` has returned (or none was needed).
        var settled: Bool
    }

    /// The callers waiting, in arrival order, with their events.
    private(set) var pending: Group
    /// When the commit thread starts the next group.
    var start: GroupStart
    /// Set when appends are refused (a failed fsync, a closed store): why.
    var refusal: String?
    /// The groups taken so far and their sizes (for the benchmark and the tests).
    var counts = GroupCounts()
    /// The groups written and not yet acknowledged, in write order.
    private var flights: [Flight] = []
    /// The next flight's number.
    private var written = 0
    /// Which of the store's `fsync` slots runs a group's `fsync`.
    private var busy: [Bool]
    /// The first `fsync` that failed: its flight's number and its error. That
    /// group and every one written after it fail with it.
    private var failure: (from: Int, error: LedgerError)?

    /// Nothing waits; the first caller's lines will be sealed after `head`
    /// (the log's); at most `slots` groups on disk at once.
    init(head: Head, slots: Int) {
        pending = Group(events: SealedBatch(on: head))
        start = GroupStart(slots: slots)
        busy = Array(repeating: false, count: slots)
    }

    /// Files a caller and its `count` checked, encoded events (`join` adds
    /// them to the pending batch, which seals their lines); true when the
    /// commit thread is to start a group now.
    mutating func arrive(count: Int, _ join: (inout SealedBatch) -> Void, done: UnsafeContinuation<Outcome, Never>) -> Bool {
        pending.callers.append(Caller(count: count, done: done))
        join(&pending.events)
        return start.arrived()
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

    /// A group was written (`wroteLines`: its `fsync` is to run) with these
    /// outcomes: its flight's number, the `fsync` slot it runs on (nil
    /// without lines: it is settled now), and whether the commit thread is to
    /// take the next group at once.
    mutating func groupWritten(_ group: Group, outcomes: [Outcome], wroteLines: Bool) -> (flight: Int, slot: Int?, next: Bool) {
        let number = written
        written += 1
        flights.append(Flight(number: number, callers: group.callers, outcomes: outcomes, wroteLines: wroteLines, settled: !wroteLines))
        var slot: Int? = nil
        if wroteLines {
            // The start rule keeps a slot free for every group it starts; close() may write more: they queue.
            let free = busy.firstIndex(of: false) ?? number % busy.count
            busy[free] = true
            slot = free
            counts.syncing(start.syncing + 1)
        }
        let next = start.groupWritten(syncs: wroteLines, waiting: !pending.callers.isEmpty)
        return (number, slot, next)
    }

    /// Flight `number`'s `fsync` on `slot` returned (`error`: it failed, the
    /// writer is now unusable). Returns the callers to resume, in write order,
    /// with their outcomes (every group before is acknowledged first), and
    /// whether the commit thread is to start a group now.
    mutating func synced(_ number: Int, slot: Int, error: LedgerError?) -> (resume: [(Caller, Outcome)], start: Bool) {
        busy[slot] = false
        if let error, failure == nil {
            failure = (number, error)
            refuse(because: error.message)
        }
        if let k = flights.firstIndex(where: { $0.number == number }) { flights[k].settled = true }
        let start = self.start.synced(waiting: !pending.callers.isEmpty)
        return (settle(), start)
    }

    /// Takes out the flights at the front whose `fsync` returned (or that had
    /// nothing to `fsync`), in order: their callers and outcomes. From the first
    /// failed `fsync` on, every caller whose events were written or found there
    /// fails with its error.
    mutating func settle() -> [(Caller, Outcome)] {
        var due: [(Caller, Outcome)] = []
        while let first = flights.first, first.settled {
            flights.removeFirst()
            for (caller, outcome) in zip(first.callers, first.outcomes) {
                if let failure, first.number >= failure.from, case .success = outcome {
                    due.append((caller, .failure(failure.error)))
                } else {
                    due.append((caller, outcome))
                }
            }
        }
        return due
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
    /// The most groups on disk at once (their `fsync`s overlapping).
    package var mostOnDisk = 0

    /// The mean number of events per group (0 before the first).
    package var mean: Double { groups == 0 ? 0 : Double(events) / Double(groups) }

    /// Counts one group of `events` events.
    mutating func add(events n: Int) {
        groups += 1
        events += n
        largest = max(largest, n)
    }

    /// Notes that `n` groups are on disk now.
    mutating func syncing(_ n: Int) {
        mostOnDisk = max(mostOnDisk, n)
    }
}

/// When the store's commit thread starts the next group: the one rule.
///
/// A group is written (sealed as its callers arrived, then one `write`) and
/// its `fsync` runs on a thread of its own, while the commit thread is free to
/// write the next group: up to `slots` groups are on disk at once, their
/// `fsync`s overlapping (a disk that serves several flushes at once, as the
/// virtual disks of servers do, then carries more events per second than one
/// `fsync` at a time can; one that does not serves them in turn, as the
/// kernel batches `fsync`s of one file). Each group is acknowledged when its
/// own `fsync` and those of the groups written before it have returned.
///
/// So a group starts as soon as a caller waits, the commit thread is not
/// writing, and fewer than `slots` groups are on disk; else when the commit
/// thread finishes a group, or an `fsync` returns, and callers wait. Never on
/// a timer: the first append after a quiet spell is written at once, and the
/// callers that arrive while groups are on disk form the next one.
struct GroupStart: Equatable {
    /// How many groups may be on disk at once.
    let slots: Int
    /// Groups written whose `fsync` has not returned.
    private(set) var syncing = 0
    /// Whether the commit thread has a group to take or is writing one.
    private(set) var writing = false

    /// At most `slots` groups on disk at once (at least 1).
    init(slots: Int) { self.slots = max(1, slots) }

    /// A caller arrived: true when the commit thread is to start a group now.
    mutating func arrived() -> Bool { startIfFree() }

    /// The commit thread wrote a group (`syncs`: its `fsync` runs now) while
    /// callers came (`waiting`): true when it is to take the next group at once.
    mutating func groupWritten(syncs: Bool, waiting: Bool) -> Bool {
        if syncs { syncing += 1 }
        writing = false
        return waiting && startIfFree()
    }

    /// A group's `fsync` returned while callers wait (`waiting`): true when
    /// the commit thread is to start a group now.
    mutating func synced(waiting: Bool) -> Bool {
        syncing -= 1
        return waiting && startIfFree()
    }

    /// The commit thread found nothing to write.
    mutating func nothingWaits() {
        writing = false
    }

    private mutating func startIfFree() -> Bool {
        guard !writing, syncing < slots else { return false }
        writing = true
        return true
    }
}
