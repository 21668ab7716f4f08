import Events
import Ledger

/// The store's group commit as it stands (guarded by the store's lock): the
/// appends waiting for the next group, and the groups written whose `fsync`
/// runs (on disk), acknowledged in the order they were written. When the next
/// group starts is `GroupStart`'s rule; how many groups may be on disk at once,
/// `OverlapPolicy`'s.
struct WaitingAppends {
    /// What a caller of `append` is resumed with: its batch's results (a slice of the group's) or its error.
    typealias Outcome = Result<ArraySlice<AppendResult>, LedgerError>

    /// One caller of `append`, suspended until its batch is durable.
    struct Caller {
        /// How many events its batch holds (they are in the group's batch, in caller order).
        var count: Int
        /// Resumed once, with its outcome.
        var done: UnsafeContinuation<Outcome, Never>
        /// Its task's priority: a round's marker runs at the lowest of the callers it follows.
        var priority: TaskPriority
        /// When it joined the pending group (`OverlapPolicy.now()`): the phases' clock.
        var joined: UInt64 = 0
    }

    /// Callers and their events, written together.
    struct Group {
        /// In arrival order.
        var callers: [Caller] = []
        /// Their events, caller after caller: joined, and their lines sealed,
        /// as each caller arrives (on its thread, not the commit thread's),
        /// on top of the group before, which may be on disk meanwhile.
        var events: SealedBatch
        /// The wall time its callers spent preparing and joining their events, in nanoseconds.
        var preparation: UInt64 = 0
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
        /// How many events it holds.
        var events: Int
        /// When it was written (`OverlapPolicy.now()`).
        var writtenAt: UInt64
        /// When its `fsync` returned (0: not yet, or none ran).
        var syncedAt: UInt64 = 0
        /// The policy's epoch when it was written (its throughput trial counts it only in that epoch).
        var epoch = 0
    }

    /// The callers waiting, in arrival order, with their events.
    private(set) var pending: Group
    /// When the commit thread starts the next group.
    var start: GroupStart
    /// How many groups may be on disk at once, from the times measured.
    private(set) var policy: OverlapPolicy
    /// Set when appends are refused (a failed fsync, a closed store): why.
    var refusal: String?
    /// The groups taken so far and their sizes (for the benchmark and the tests).
    var counts = GroupCounts()
    /// The groups written and not yet acknowledged, in write order.
    private var flights: [Flight] = []
    /// The next flight's number.
    private var written = 0
    /// The events in flight when the last group was taken (its own included).
    private var inFlight = 0
    /// The callers of the groups written and not yet acknowledged.
    private var callersOnDisk = 0
    /// The callers in the store (waiting or on disk), the most seen, an eighth
    /// forgotten at each group taken (callers that stop appending drop out).
    private var callersSeen = 0
    /// Which of the store's `fsync` slots runs a group's `fsync`.
    private var busy: [Bool]
    /// The events of the groups written and not yet acknowledged.
    private var eventsOnDisk = 0
    /// The first `fsync` that failed: its flight's number and its error. That
    /// group and every one written after it fail with it.
    private var failure: (from: Int, error: LedgerError)?
    /// When the last group was decided on (`OverlapPolicy.now()`), and when
    /// callers were last resumed (0: none since that decision): the phases' clocks.
    private var startedAt: UInt64 = 0, resumedAt: UInt64 = 0

    /// Nothing waits; the first caller's lines will be sealed after `head`
    /// (the log's); at most `slots` groups on disk at once, as many as the
    /// policy chooses.
    init(head: Head, slots: Int) {
        pending = Group(events: SealedBatch(on: head))
        policy = OverlapPolicy(most: slots)
        start = GroupStart(slots: slots, depth: policy.depth)
        busy = Array(repeating: false, count: start.slots)
    }

    /// Files a caller and its `count` checked, encoded events (`join` adds
    /// them to the pending batch, which seals their lines), the caller having
    /// started preparing them at `since` (`OverlapPolicy.now()`); true when the commit
    /// thread is to start a group now (`limit`: a group's worth of events).
    mutating func arrive(count: Int, _ join: (inout SealedBatch) -> Void, done: UnsafeContinuation<Outcome, Never>,
                         priority: TaskPriority, since: UInt64, limit: Int) -> Bool {
        join(&pending.events)
        let now = OverlapPolicy.now()
        pending.callers.append(Caller(count: count, done: done, priority: priority, joined: now))
        pending.preparation &+= now &- since
        counts.phases.prepare &+= now &- since
        return started(start.arrived(waiting: pending.callers.count, full: pending.events.count >= limit))
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
            // Room for a group like this one: the callers joining do not grow the arrays step by step.
            pending.events.reserveCapacity(events: group.events.count, bytes: group.events.byteCount)
            pending.callers.reserveCapacity(group.callers.count)
        } else {
            var taken = 0, count = 0
            while taken < pending.callers.count, taken == 0 || count + pending.callers[taken].count <= limit {
                count += pending.callers[taken].count
                taken += 1
            }
            group.callers = Array(pending.callers[..<taken])
            pending.callers.removeFirst(taken)
            group.events = pending.events.removeFirst(count)
            // The preparation time goes with the events, in proportion.
            group.preparation = pending.preparation / UInt64(pending.events.count + count) * UInt64(count)
            pending.preparation -= group.preparation
        }
        counts.add(events: group.events.count, whileOnDisk: start.syncing)
        callersSeen = max(group.callers.count + pending.callers.count + callersOnDisk, callersSeen - callersSeen / 8)
        let now = OverlapPolicy.now()
        counts.phases.commitWake &+= now &- startedAt
        for caller in group.callers { counts.phases.callerWait &+= now &- caller.joined }
        counts.phases.callers += group.callers.count
        inFlight = group.events.count + eventsOnDisk
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
    /// outcomes, the commit thread having spent `writing` nanoseconds on it:
    /// its flight's number, the `fsync` slot it runs on (nil without lines:
    /// it is settled now), whether it is the only group on disk with one
    /// group at a time allowed (`alone`: no group can start before its
    /// `fsync` returns), and whether the commit thread is to take the next
    /// group at once.
    mutating func groupWritten(_ group: Group, outcomes: [Outcome], wroteLines: Bool, writing: UInt64, limit: Int)
        -> (flight: Int, slot: Int?, alone: Bool, next: Bool) {
        let number = written
        written += 1
        flights.append(Flight(number: number, callers: group.callers, outcomes: outcomes, wroteLines: wroteLines, settled: !wroteLines,
                              events: group.events.count, writtenAt: OverlapPolicy.now(), epoch: policy.epoch))
        counts.phases.write &+= writing
        eventsOnDisk += group.events.count
        callersOnDisk += group.callers.count
        policy.prepared(nanoseconds: group.preparation &+ writing, events: group.events.count, inFlight: inFlight)
        follow()
        var slot: Int? = nil
        let alone = wroteLines && start.depth == 1 && start.syncing == 0
        if wroteLines {
            // The start rule keeps a slot free for every group it starts; close() may write more: they queue.
            let free = busy.firstIndex(of: false) ?? number % busy.count
            busy[free] = true
            slot = free
            counts.syncing(start.syncing + 1)
        }
        let next = started(start.groupWritten(syncs: wroteLines, waiting: pending.callers.count, full: pending.events.count >= limit))
        return (number, slot, alone && !next, next)
    }

    /// Flight `number`'s `fsync` on `slot`, begun at `begun`, returned after `nanoseconds`
    /// (`error`: it failed, the writer is now unusable). Returns the callers
    /// to resume, in write order, with their outcomes (every group before is
    /// acknowledged first), whether the commit thread is to start a group
    /// now, and, one group at a time, the round the marker task queued behind
    /// the callers resumed is to report (`roundPassed`).
    mutating func synced(_ number: Int, slot: Int, begun: UInt64 = 0, nanoseconds: UInt64, error: LedgerError?, limit: Int)
        -> (resume: [(Caller, Outcome)], start: Bool, round: Int?) {
        busy[slot] = false
        counts.phases.fsync &+= nanoseconds
        if let error, failure == nil {
            failure = (number, error)
            refuse(because: error.message)
        }
        if let k = flights.firstIndex(where: { $0.number == number }) {
            flights[k].settled = true
            flights[k].syncedAt = OverlapPolicy.now()
            if begun > flights[k].writtenAt { counts.phases.syncWake &+= begun &- flights[k].writtenAt }
        }
        if error == nil { policy.synced(nanoseconds: nanoseconds) }
        let due = settle()
        let (go, round) = start.synced(waiting: pending.callers.count, resumed: refusal == nil ? due.count : 0,
                                       full: pending.events.count >= limit)
        return (due, started(go), round)
    }

    /// The callers resumed before round `round`'s marker had their turn: true
    /// when the commit thread is to start a group now.
    mutating func roundPassed(_ round: Int) -> Bool {
        started(start.roundPassed(round, waiting: pending.callers.count))
    }

    /// Callers were resumed from `begun` until now (the phases' clocks).
    mutating func resumed(since begun: UInt64) {
        let now = OverlapPolicy.now()
        counts.phases.resume &+= now &- begun
        // A group decided on while they were being resumed gathered them already.
        if startedAt < begun { resumedAt = now }
    }

    /// Notes when a group was decided on (`go`), and the gathering before it; returns `go`.
    private mutating func started(_ go: Bool) -> Bool {
        guard go else { return go }
        startedAt = OverlapPolicy.now()
        if resumedAt > 0 {
            counts.phases.gather &+= startedAt &- resumedAt
            resumedAt = 0
        }
        return go
    }

    /// Takes out the flights at the front whose `fsync` returned (or that had
    /// nothing to `fsync`), in order: their callers and outcomes. From the first
    /// failed `fsync` on, every caller whose events were written or found there
    /// fails with its error.
    /// Each group acknowledged with lines written is the policy's throughput
    /// trial's sample; the policy's choice is then taken.
    mutating func settle() -> [(Caller, Outcome)] {
        var due: [(Caller, Outcome)] = []
        var now: UInt64 = 0
        while let first = flights.first, first.settled {
            flights.removeFirst()
            if now == 0 { now = OverlapPolicy.now() }
            if first.syncedAt > 0 { counts.phases.ackWait &+= now &- first.syncedAt }
            if first.wroteLines, failure == nil { policy.acknowledged(events: first.events, written: first.epoch, now: now) }
            eventsOnDisk -= first.events
            callersOnDisk -= first.callers.count
            for (caller, outcome) in zip(first.callers, first.outcomes) {
                if let failure, first.number >= failure.from, case .success = outcome {
                    due.append((caller, .failure(failure.error)))
                } else {
                    due.append((caller, outcome))
                }
            }
        }
        follow()
        return due
    }

    /// Takes the policy's choice, and notes it and its estimates in the counts.
    private mutating func follow() {
        start.depth = policy.depth
        start.share = policy.depth > 1 ? max(1, callersSeen / policy.depth) : 1
        counts.depth = policy.depth
        counts.fsyncMicroseconds = (policy.fsyncNanoseconds ?? 0) / 1000
        counts.preparationMicroseconds = (policy.eventNanoseconds ?? 0) / 1000
        counts.inFlight = policy.inFlight ?? 0
        counts.serialRate = policy.serialRate ?? 0
        counts.overlapRate = policy.overlapRate ?? 0
        counts.switches = policy.switches
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
    /// Groups taken while another group's `fsync` ran (overlapping it).
    package var overlapped = 0
    /// How many groups the policy let be on disk at once after the last
    /// group's measurements (1: one at a time).
    package var depth = 0
    /// The policy's estimates after the last group: one `fsync`, a group's
    /// preparation per event (callers and commit thread), in µs, and the events in flight.
    package var fsyncMicroseconds = 0.0, preparationMicroseconds = 0.0, inFlight = 0.0
    /// The policy's throughput trial: events acknowledged a second one at a
    /// time and overlapping (0: not measured), and how many times its choice
    /// changed kind (probes included).
    package var serialRate = 0.0, overlapRate = 0.0, switches = 0
    /// Where a group's wall time went, summed over the groups (see ``GroupPhases``).
    package var phases = GroupPhases()

    /// The mean number of events per group (0 before the first).
    package var mean: Double { groups == 0 ? 0 : Double(events) / Double(groups) }

    /// Counts one group of `events` events, taken while `onDisk` groups' `fsync`s ran.
    mutating func add(events n: Int, whileOnDisk onDisk: Int = 0) {
        groups += 1
        if onDisk > 0 { overlapped += 1 }
        events += n
        largest = max(largest, n)
    }

    /// Notes that `n` groups are on disk now.
    mutating func syncing(_ n: Int) {
        mostOnDisk = max(mostOnDisk, n)
    }
}

/// Where the groups' wall time went, in nanoseconds summed over the groups
/// (what the benchmark prints per group, to tell waiting from working):
/// each group's way from the callers' return to their next acknowledgement.
package struct GroupPhases: Sendable, Hashable {
    /// From the last acknowledgement (the callers resumed) to the decision to
    /// start the next group: the callers coming back, preparing and joining.
    package var gather: UInt64 = 0
    /// From that decision to the commit thread taking the group (its wake-up).
    package var commitWake: UInt64 = 0
    /// The commit thread writing the group (the writer's append, `write`).
    package var write: UInt64 = 0
    /// From the group written to its `fsync` starting (the `fsync` thread's wake-up).
    package var syncWake: UInt64 = 0
    /// The `fsync`s.
    package var fsync: UInt64 = 0
    /// Resuming the callers acknowledged.
    package var resume: UInt64 = 0
    /// From a group's `fsync` returning to its acknowledgement (waiting for the
    /// `fsync`s of the groups written before it), summed over the groups that ran one.
    package var ackWait: UInt64 = 0
    /// From a caller joining the pending group to the commit thread taking its
    /// group, summed over the callers (not the groups: see ``callers``).
    package var callerWait: UInt64 = 0
    /// The callers taken in groups (``callerWait``'s divisor).
    package var callers = 0
    /// From a caller starting its append (checking and encoding its events) to
    /// its joining the pending group (the lock taken, its lines sealed), summed
    /// over the callers (``callers`` is the divisor). With ``callerWait``, the
    /// group's phases and an append's latency, what is left of the latency is the
    /// caller's way back: from its resumption to its next append starting.
    package var prepare: UInt64 = 0
}

/// When the store's commit thread starts the next group: the one rule.
///
/// A group is written (sealed as its callers arrived, then one `write`) and
/// its `fsync` runs on a thread of its own, while the commit thread is free to
/// write the next group: up to `depth` groups are on disk at once, their
/// `fsync`s overlapping (a disk that serves several flushes at once, as the
/// virtual disks of servers do, then carries more events per second than one
/// `fsync` at a time can). `depth` is `OverlapPolicy`'s choice, from the
/// `fsync` time, the preparation time and the events a second it measures. Each group is
/// acknowledged when its own `fsync` and those of the groups written before
/// it have returned.
///
/// So a group starts as soon as a caller waits, the commit thread is not
/// writing, and fewer than `depth` groups are on disk; else when the commit
/// thread finishes a group, or an `fsync` returns, and callers wait. While
/// another group is on disk, a caller's arrival or the commit thread's return
/// starts one only when `share` callers wait (the callers in the store over
/// `depth`): else the first caller back from an `fsync` took a free slot
/// alone, and the groups came out small and uneven (more `fsync`s for the
/// same events); an `fsync` returning starts one with whoever waits, so
/// nobody waits for a share that does not come.
///
/// One at a time (`depth` 1), the callers of a group are resumed when its
/// `fsync` returns; most append again at once, but on the cooperative pool's
/// threads, one after another: a group started by the first of them would
/// hold only it (64 tasks made groups of 1 and 63 in turn). So then the next
/// group starts when as many callers wait as were resumed (with those already
/// waiting), or when the callers resumed have had their turn on the pool (a
/// marker task queued behind them reports the round: a caller that does not
/// append again holds nobody up), or when a group's worth of events waits.
/// Never on a timer: an append finding the store idle starts a group at once.
struct GroupStart: Equatable {
    /// How many groups may be on disk at once (the slots).
    let slots: Int
    /// How many groups may be on disk at once now (1...slots; the policy's).
    var depth: Int
    /// While another group is on disk, the callers a group waits for (1: none).
    var share = 1
    /// Groups written whose `fsync` has not returned.
    private(set) var syncing = 0
    /// Whether the commit thread has a group to take or is writing one.
    private(set) var writing = false
    /// One at a time, after a group's callers were resumed: the next group
    /// starts when `target` callers wait or when round `round` has passed.
    private(set) var gathering: Gathering?
    /// The rounds begun so far (a marker of an earlier round changes nothing).
    private var rounds = 0

    /// The callers resumed after a group, on their way back.
    struct Gathering: Equatable {
        var target: Int
        var round: Int
    }

    /// At most `slots` groups on disk at once (at least 1), `depth` of them now.
    init(slots: Int, depth: Int? = nil) {
        self.slots = max(1, slots)
        self.depth = min(self.slots, max(1, depth ?? self.slots))
    }

    /// A caller arrived; `waiting` callers wait now, it included (`full`: with
    /// a group's worth of events). True when the commit thread is to start a group now.
    mutating func arrived(waiting: Int = 1, full: Bool = false) -> Bool {
        if let gathering {
            guard waiting >= gathering.target || full else { return false }
            self.gathering = nil
        }
        guard syncing == 0 || waiting >= share || full else { return false }
        return startIfFree()
    }

    /// The commit thread wrote a group (`syncs`: its `fsync` runs now) while
    /// `waiting` callers came (`full`: a group's worth of events): true when it
    /// is to take the next group at once.
    mutating func groupWritten(syncs: Bool, waiting: Int, full: Bool = false) -> Bool {
        if syncs { syncing += 1 }
        writing = false
        return waiting > 0 && gathering == nil && (syncing == 0 || waiting >= share || full) && startIfFree()
    }

    /// A group's `fsync` returned, `resumed` callers are resumed now, and
    /// `waiting` callers wait (`full`: a group's worth of events). Returns
    /// whether the commit thread is to start a group now, and, one at a time,
    /// the round a marker task queued behind the resumed callers is to report.
    mutating func synced(waiting: Int, resumed: Int = 0, full: Bool = false) -> (start: Bool, round: Int?) {
        syncing -= 1
        if depth == 1, resumed > 0, !full, syncing == 0, !writing {
            rounds += 1
            gathering = Gathering(target: resumed + waiting, round: rounds)
            return (false, rounds)
        }
        gathering = nil
        return (waiting > 0 && startIfFree(), nil)
    }

    /// The callers resumed before round `round`'s marker had their turn, and
    /// `waiting` callers wait: true when the commit thread is to start a group now.
    mutating func roundPassed(_ round: Int, waiting: Int) -> Bool {
        guard let gathering, gathering.round == round else { return false }
        self.gathering = nil
        return waiting > 0 && startIfFree()
    }

    /// The commit thread found nothing to write.
    mutating func nothingWaits() {
        writing = false
    }

    private mutating func startIfFree() -> Bool {
        guard !writing, syncing < depth else { return false }
        writing = true
        return true
    }
}
