import Dispatch
import Events
import Ledger
import Projections

/// A log shared by every task of an app or a server: `async` appends with
/// group commit, and each tracked learner's state kept live as events are
/// appended (no replay per action).
///
/// ```swift
/// let store = try await LedgerStore.open(path: logPath)
/// let result = try await store.append(event)       // durable (fsync'd) when it returns
/// let state = try await store.state(of: "u-42")    // folded, not re-read
/// for try await state in store.states(of: "u-42") { ... }  // each change
/// ```
///
/// - **No blocked caller**: an append suspends its task; the write and the
///   `fsync` run on the store's own commit thread.
/// - **Group commit**: the events of every append waiting while the commit
///   thread was busy are written together, with one write and one `fsync`
///   (one `LedgerWriter.append(_:durability:)` batch). Each caller's line is
///   sealed (its `seq`, and the previous line's hash as `prev`) as it joins,
///   on its own task, so a group is written as soon as it starts, and its
///   `fsync` runs on a thread of its own. When the `fsync`s measured take
///   longer than preparing a group, and overlapping acknowledges more events
///   a second than one group at a time (measured too, now and then), the
///   next group is written meanwhile (up to eight on disk at once, their
///   `fsync`s overlapping); else one group at a time, as large as the
///   callers waiting make it, its `fsync` run by the commit thread.
///   Nobody waits on a timer. Each caller returns when its own events are
///   durable, and the groups are acknowledged in the order they were written.
/// - **One bad event fails only its caller**: each caller's events are checked
///   and encoded on its own task before they join a group (as `append` checks
///   them; the commit thread does not encode again); an event the writer
///   still refuses (an id another caller of the group sent with other
///   content, for example) is taken out of the group and the others are written.
/// - **A failed `fsync` fails every caller of its group** and of every group
///   written after it (their lines follow the group's in the log), and the
///   store then refuses every later append (`.unusable`), as the writer does:
///   open the log again and re-send (the ids make that safe).
///
/// The live states cover the log as read when a learner is first tracked and
/// every event appended through this store after that (from when its group
/// is written, a moment before its `fsync` returns). Another process
/// appending to the same file is seen at the next ``track(_:snapshot:)`` of a
/// new store, not live.
public final class LedgerStore: Sendable {
    /// The log's path.
    public let path: String
    /// Torn tails moved to side files when the log was opened.
    public let recoveries: [Recovery]

    /// The writer: used by one commit (or one learner's first read) at a time.
    private let writer: Guarded<LedgerWriter>
    /// The appends waiting for the next group, and the groups on disk.
    private let waiting: Guarded<WaitingAppends>
    /// The tracked learners, their projections and observers.
    private let learners = Guarded(LiveLearners())
    /// Where groups are written.
    private let commits = DispatchQueue(label: "ProgressLedger.LedgerStore.commits")
    /// Where the groups' `fsync`s run: one queue and one descriptor per group on disk at once.
    private let syncs: [(queue: DispatchQueue, log: LogSync)]

    /// The most events one group writes (one line each: at most 1 MiB each, 64 MiB a group).
    static let maxGroupEvents = 4096
    /// The most groups on disk (`fsync` running) at once; how many, up to
    /// this, is `OverlapPolicy`'s choice from the times it measures.
    package static let groupsOnDisk = 8

    /// Opens (or creates) the log, checking it as `LedgerWriter` does; blocks
    /// the calling thread while it reads the log (see ``open(path:create:)``).
    public convenience init(path: String, create: Bool = true) throws(LedgerError) {
        try self.init(path: path, create: create, faults: nil)
    }

    /// Opens the log with the writer's fault seam (for tests), with at most
    /// `groupsOnDisk` groups' `fsync`s running at once (1: always one at a time).
    package init(path: String, create: Bool, faults: FaultInjector?, groupsOnDisk: Int = LedgerStore.groupsOnDisk) throws(LedgerError) {
        let w = try LedgerWriter(path: path, create: create, faults: faults)
        var syncs: [(queue: DispatchQueue, log: LogSync)] = []
        for k in 0..<max(1, groupsOnDisk) {
            syncs.append((DispatchQueue(label: "ProgressLedger.LedgerStore.fsync-\(k)"), try w.openSync()))
        }
        self.path = path
        recoveries = w.recoveries
        waiting = Guarded(WaitingAppends(head: w.head, slots: syncs.count))
        self.syncs = syncs
        writer = Guarded(w)
    }

    /// Opens (or creates) the log off the calling thread.
    public static func open(path: String, create: Bool = true) async throws(LedgerError) -> LedgerStore {
        try await offThread { () throws(LedgerError) in try LedgerStore(path: path, create: create) }
    }

    /// Whether the store still accepts appends (false after a failed `fsync` or ``close()``).
    public var isUsable: Bool { waiting.withLock { $0.refusal == nil } }

    // MARK: Appending

    /// Appends one event; returns when it is durable. See ``append(_:)-([NewEvent])``.
    @discardableResult
    public func append(_ event: NewEvent) async throws(LedgerError) -> AppendResult {
        let since = OverlapPolicy.now()
        // Moved into the group as it joins (taken out, not copied): nothing of it is held across the wait.
        var prepared: PreparedEvent? = try PreparedEvent(event, path: path)
        guard let result = try await enqueue(count: 1, since: since, { batch in
            if let one = prepared.take() { batch.append(one) }
        }).get().first else {
            throw LedgerError(.io, path: path, "the append returned no result")  // cannot happen: one event in, one result out
        }
        return result
    }

    /// Appends a batch of events (all or nothing, as `LedgerWriter.append(_:durability:)`),
    /// in the next group commit; returns when the batch is durable.
    ///
    /// Results and errors are the writer's: `.alreadyPresent` for an id already
    /// in the log, `.invalidEvent` (whose `LedgerError.eventIndex` is the
    /// position in `events`) for an event breaking a rule, `.notDurable` for a
    /// failed `fsync`, `.unusable` once the store refuses appends.
    @discardableResult
    public func append(_ events: [NewEvent]) async throws(LedgerError) -> [AppendResult] {
        guard !events.isEmpty else { return [] }
        let since = OverlapPolicy.now()
        let prepared = try PreparedEvents(events, path: path)
        return Array(try await enqueue(count: events.count, since: since, { $0.append(contentsOf: prepared) }).get())
    }

    /// Joins the pending group with a caller's batch of `count` events, checked
    /// and encoded on the caller's thread (the writer's own preparation: a bad
    /// event failed there, alone) and sealed as it joins, and waits until the
    /// group is durable. `since`: when the caller started preparing (the
    /// policy's measure of a group's preparation).
    private func enqueue(count: Int, since: UInt64, _ join: (inout SealedBatch) -> Void) async -> WaitingAppends.Outcome {
        let priority = Task.currentPriority
        // Unsafe, not checked: every caller filed is resumed exactly once, by `deliver` (or here when refused).
        return await withUnsafeContinuation { (done: UnsafeContinuation<WaitingAppends.Outcome, Never>) in
            let start = waiting.withLock { w -> Bool? in
                if w.refusal != nil { return nil }
                return w.arrive(count: count, join, done: done, priority: priority, since: since, limit: Self.maxGroupEvents)
            }
            switch start {
            case nil:
                done.resume(returning: .failure(refusal()))
            case true?:
                commits.async { self.writeGroups() }
            case false?:
                break
            }
        }
    }

    /// The commit thread's queue (for the tests' seam).
    var commitQueue: DispatchQueue { commits }
    /// How many callers wait for the next group (for the tests' seam).
    var waitingCallers: Int { waiting.withLock { $0.pending.callers.count } }
    /// The groups taken so far (for the benchmark's and the tests' seam).
    var takenGroups: GroupCounts { waiting.withLock { $0.counts } }

    /// Why appends are refused now.
    private func refusal() -> LedgerError {
        let reason = waiting.withLock { $0.refusal } ?? "it is closed"
        return LedgerError(.unusable, path: path, "this store can no longer append: \(reason)")
    }

    /// On the commit thread: writes the waiting callers' group and hands its
    /// `fsync` to a thread of its own, then the next group while `GroupStart`
    /// allows (fewer groups on disk than `OverlapPolicy` allows, and callers waiting).
    private func writeGroups() {
        while let group = waiting.withLock({ $0.nextGroup(limit: Self.maxGroupEvents) }) {
            guard file(group) else { return }
        }
    }

    /// On the commit thread: writes `group` and starts its `fsync` (or
    /// acknowledges it, with nothing to `fsync`); true when the next group is to be taken at once.
    /// One group at a time, with no other group on disk, the commit thread
    /// runs the `fsync` itself: no group could start before it returns, and
    /// handing it to a thread of its own would cost a wake-up a group.
    private func file(_ group: WaitingAppends.Group) -> Bool {
        let begun = OverlapPolicy.now()
        let (outcomes, lines) = commit(group)
        let spent = OverlapPolicy.now() &- begun
        let (flight, slot, alone, next) = waiting.withLock {
            $0.groupWritten(group, outcomes: outcomes, wroteLines: lines.count > 0, writing: spent, limit: Self.maxGroupEvents)
        }
        if let slot {
            if alone { return sync(flight, slot: slot, lines: lines) }
            syncs[slot].queue.async {
                if self.sync(flight, slot: slot, lines: lines) { self.commits.async { self.writeGroups() } }
            }
        } else {
            deliver(waiting.withLock { $0.settle() })
        }
        return next
    }

    /// On `fsync` slot `slot`'s thread (or the commit thread, one group at a
    /// time): makes flight `flight`'s `lines` durable,
    /// then acknowledges every group now due, in write order. A failure makes
    /// the writer unusable and fails this group and every later one. One
    /// group at a time, a marker task queued behind the callers resumed
    /// starts the next group if they have not all come back by its turn.
    /// Returns whether the commit thread is to start a group now.
    private func sync(_ flight: Int, slot: Int, lines: (first: Int, count: Int)) -> Bool {
        var failure: LedgerError? = nil
        let begun = OverlapPolicy.now()
        do throws(SystemCallError) { try syncs[slot].log.sync() } catch {
            failure = writer.withLock { $0.markNotDurable(error, first: lines.first, count: lines.count) }
        }
        let spent = OverlapPolicy.now() &- begun
        let (due, start, round) = waiting.withLock {
            $0.synced(flight, slot: slot, begun: begun, nanoseconds: spent, error: failure, limit: Self.maxGroupEvents)
        }
        deliver(due)
        if let round {
            let lowest = due.map { $0.0.priority }.min { $0.rawValue < $1.rawValue } ?? .medium
            Task.detached(priority: lowest) {
                // Behind every caller resumed above; once more behind any of them still running on another thread.
                await Task.yield()
                if self.waiting.withLock({ $0.roundPassed(round) }) { self.commits.async { self.writeGroups() } }
            }
        }
        return start
    }

    /// Resumes callers with their outcomes, in order.
    private func deliver(_ due: [(WaitingAppends.Caller, WaitingAppends.Outcome)]) {
        guard !due.isEmpty else { return }
        let begun = OverlapPolicy.now()
        for (caller, outcome) in due { caller.done.resume(returning: outcome) }
        waiting.withLock { $0.resumed(since: begun) }
    }

    /// On the commit thread, at `close()`: writes every waiting caller's group at once.
    private func writeWaiting() {
        while let group = waiting.withLock({ $0.nextGroup(limit: Self.maxGroupEvents) }) {
            _ = file(group)
        }
    }

    /// Writes one group, without its `fsync` (``sync(_:slot:lines:)`` runs it);
    /// a caller whose batch the writer refuses is taken out and the rest
    /// written. Returns each caller's outcome, in order, and the lines written
    /// (the first one's seq, and how many).
    private func commit(_ group: WaitingAppends.Group) -> (outcomes: [WaitingAppends.Outcome], lines: (first: Int, count: Int)) {
        // Every caller's outcome is set below (written, refused alone, or failed with the group).
        var outcomes = [WaitingAppends.Outcome](
            repeating: .failure(LedgerError(.io, path: path, "the group was not written")), count: group.callers.count)
        var batch = group.events
        var lines = (first: 0, count: 0)
        // The callers whose events are in `batch`, in order.
        var callers = Array(group.callers.indices)
        while !callers.isEmpty {
            let (outcome, usable) = writer.withLock { w in
                let before = w.head.seq
                let outcome = Result { () throws(LedgerError) in try w.append(batch, durability: .deferred) }
                if case .success(let results) = outcome {
                    lines = (before + 1, w.head.seq - before)
                    // Under the writer's lock, so that a learner's first read sees either all of this group or none.
                    learners.withLock { $0.apply(results, of: batch.prepared.events) }
                }
                return (outcome, w.isUsable)
            }
            switch outcome {
            case .success(let results):
                var at = 0
                for k in callers {
                    outcomes[k] = .success(results[at..<at + group.callers[k].count])
                    at += group.callers[k].count
                }
                callers = []
            case .failure(let error) where error.eventIndex != nil && usable:
                // One caller's event: fail that caller alone (its own index), write the others.
                var at = 0
                let index = error.eventIndex ?? 0
                guard let j = callers.firstIndex(where: { at += group.callers[$0].count; return index < at }) else {
                    for k in callers { outcomes[k] = .failure(error) }
                    callers = []
                    break
                }
                let count = group.callers[callers[j]].count
                var own = error
                own.eventIndex = index - (at - count)
                outcomes[callers[j]] = .failure(own)
                batch.removeSubrange(at - count..<at)
                callers.remove(at: j)
            case .failure(let error):
                for k in callers { outcomes[k] = .failure(error) }
                callers = []
                if !usable { waiting.withLock { $0.refuse(because: error.message) } }
            }
        }
        // The callers that came meanwhile sealed their lines on this group's: again, if it was written otherwise.
        writer.withLock { w in
            let head = w.head
            waiting.withLock { w in
                if group.events.isSealed, group.events.tip == head { w.counts.sealedAhead += 1 }
                w.sealPending(on: head)
            }
        }
        return (outcomes, lines)
    }

    // MARK: Live state

    /// Starts keeping a learner's state live: reads the learner's events once
    /// (from `snapshot` when it matches the log, then only the lines after it,
    /// and saves the snapshot again), then folds each event appended through
    /// this store. Does nothing when the learner is already tracked.
    ///
    /// `options` also sets the state's day (`StateOptions.day`; nil: the day
    /// of the learner's latest event), retry limit and streak rule.
    public func track(_ options: StateOptions, snapshot: String? = nil) async throws(LedgerError) {
        if learners.withLock({ $0.byUser[ExactString(options.user)] != nil }) { return }
        try await Self.offThread { () throws(LedgerError) in
            try self.writer.withLock { (_) throws(LedgerError) in  // no group is written while the log is read
                if self.learners.withLock({ $0.byUser[ExactString(options.user)] != nil }) { return }
                var projector = LearnerProjector(options: options)
                let read = try LogReader(path: self.path).read(.init(user: options.user, snapshot: snapshot)) { projector.apply($0) }
                self.learners.withLock { $0.byUser[ExactString(options.user)] = LiveLearners.Learner(projector: projector) }
                // A snapshot that cannot be saved costs the next start a full read, nothing else.
                try? read.saveSnapshot()
            }
        }
    }

    /// The learner's current state (tracking the learner first if needed, with
    /// default options); `day` nil: the tracked options' day.
    public func state(of user: String, day: Day? = nil) async throws(LedgerError) -> LearnerState {
        try await track(StateOptions(user: user))
        return learners.withLock { $0.byUser[ExactString(user)].map { $0.projector.state(day: day) } } ?? LearnerProjector(options: StateOptions(user: user)).state(day: day)
    }

    /// The learner's state now, then after every group commit that held
    /// events of this learner, appended or already in the log (an idempotent
    /// re-send yields the state unchanged, so awaiting the state after one's
    /// own append never hangs; an observer that falls behind sees the latest
    /// state, never a stale one). Tracks the learner first if needed; a failed
    /// read ends the sequence with its error. The sequence ends at ``close()``
    /// or when the consumer stops.
    public func states(of user: String) -> AsyncThrowingStream<LearnerState, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do throws(LedgerError) {
                    try await self.track(StateOptions(user: user))
                    guard let id = self.learners.withLock({ $0.observe(user, continuation) }) else {
                        continuation.finish()  // the store was closed meanwhile
                        return
                    }
                    continuation.onTermination = { _ in self.learners.withLock { $0.stopObserving(user, id) } }
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            _ = task
        }
    }

    /// Writes what is waiting, waits for every group on disk, closes the log
    /// and ends every ``states(of:)`` sequence; later appends are refused.
    public func close() async {
        waiting.withLock { $0.refuse(because: "it is closed") }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            commits.async {
                // Callers that waited for a free fsync slot are written now (their fsyncs queue behind the others').
                self.writeWaiting()
                // Each fsync queue runs its fsyncs in order: once past them, every group is acknowledged.
                for sync in self.syncs { sync.queue.sync {} }
                self.writer.withLock { $0.close() }
                for sync in self.syncs { sync.log.close() }
                for observer in self.learners.withLock({ $0.closeAll() }) { observer.finish() }
                done.resume()
            }
        }
    }

    /// Runs blocking work (reading a log) on a Dispatch thread, not the caller's.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<T, LedgerError>, Never>) in
            DispatchQueue.global().async { done.resume(returning: Result { () throws(LedgerError) in try work() }) }
        }
        return try result.get()
    }
}
