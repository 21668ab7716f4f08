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
/// - **Group commit**: the events of every append waiting while a commit is
///   on disk are written together, with one write and one `fsync` (one
///   ``LedgerWriter/append(_:durability:)`` batch). After a group, the next
///   one starts once the callers it resumed are back (or have had their turn
///   on the cooperative pool), so that tasks appending in a loop share one
///   `fsync`. The first append after a quiet spell is written at once: nobody
///   waits on a timer. Each caller returns when its own events are durable.
/// - **One bad event fails only its caller**: each caller's events are checked
///   and encoded on its own task before they join a group (as `append` checks
///   them; the commit thread does not encode again); an event the writer
///   still refuses (an id another caller of the group sent with other
///   content, for example) is taken out of the group and the others are written.
/// - **A failed `fsync` fails every caller of its group**, and the store then
///   refuses every later append (`.unusable`), as the writer does: open the
///   log again and re-send (the ids make that safe).
///
/// The live states cover the log as read when a learner is first tracked and
/// every event appended through this store after that. Another process
/// appending to the same file is seen at the next ``track(_:snapshot:)`` of a
/// new store, not live.
public final class LedgerStore: Sendable {
    /// The log's path.
    public let path: String
    /// Torn tails moved to side files when the log was opened.
    public let recoveries: [Recovery]

    /// The writer: used by one commit (or one learner's first read) at a time.
    private let writer: Guarded<LedgerWriter>
    /// The appends waiting for the next group.
    private let waiting: Guarded<WaitingAppends>
    /// The tracked learners, their projections and observers.
    private let learners = Guarded(LiveLearners())
    /// Where groups are written and fsync'd.
    private let commits = DispatchQueue(label: "ProgressLedger.LedgerStore.commits")

    /// The most events one group writes (one line each: at most 1 MiB each, 64 MiB a group).
    static let maxGroupEvents = 4096

    /// Opens (or creates) the log, checking it as ``LedgerWriter`` does; blocks
    /// the calling thread while it reads the log (see ``open(path:create:)``).
    public convenience init(path: String, create: Bool = true) throws(LedgerError) {
        try self.init(path: path, create: create, faults: nil)
    }

    /// Opens the log with the writer's fault seam (for tests).
    package init(path: String, create: Bool, faults: FaultInjector?) throws(LedgerError) {
        let w = try LedgerWriter(path: path, create: create, faults: faults)
        self.path = path
        recoveries = w.recoveries
        waiting = Guarded(WaitingAppends(head: w.head))
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
        let prepared = try PreparedEvent(event, path: path)
        guard let result = try await enqueue(count: 1, { $0.append(prepared) }).get().first else {
            throw LedgerError(.io, path: path, "the append returned no result")  // cannot happen: one event in, one result out
        }
        return result
    }

    /// Appends a batch of events (all or nothing, as ``LedgerWriter/append(_:durability:)``),
    /// in the next group commit; returns when the batch is durable.
    ///
    /// Results and errors are the writer's: `.alreadyPresent` for an id already
    /// in the log, `.invalidEvent` (whose ``LedgerError/eventIndex`` is the
    /// position in `events`) for an event breaking a rule, `.notDurable` for a
    /// failed `fsync`, `.unusable` once the store refuses appends.
    @discardableResult
    public func append(_ events: [NewEvent]) async throws(LedgerError) -> [AppendResult] {
        guard !events.isEmpty else { return [] }
        let prepared = try PreparedEvents(events, path: path)
        return Array(try await enqueue(count: events.count, { $0.append(contentsOf: prepared) }).get())
    }

    /// Joins the pending group with a caller's batch of `count` events, checked
    /// and encoded on the caller's thread (the writer's own preparation: a bad
    /// event failed there, alone), and waits until the group is written.
    private func enqueue(count: Int, _ join: (inout SealedBatch) -> Void) async -> Result<ArraySlice<AppendResult>, LedgerError> {
        let priority = Task.currentPriority
        return await withCheckedContinuation { (done: CheckedContinuation<Result<ArraySlice<AppendResult>, LedgerError>, Never>) in
            let start = waiting.withLock { w -> Bool? in
                if w.refusal != nil { return nil }
                return w.arrive(count: count, join, done: done, priority: priority, limit: Self.maxGroupEvents)
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

    /// On the commit thread: writes the waiting callers' group, resumes them,
    /// and lets them have their turn (`GroupStart`): the next group starts
    /// when they are back, when the round's marker task, queued behind them,
    /// finds it has passed, or at once when a group's worth of events waits.
    private func writeGroups() {
        while let group = waiting.withLock({ $0.nextGroup(limit: Self.maxGroupEvents) }) {
            let outcomes = commit(group)
            let round = waiting.withLock { $0.groupWritten(callers: group.callers.count, limit: Self.maxGroupEvents) }
            var lowest = TaskPriority.high
            for (caller, outcome) in zip(group.callers, outcomes) {
                if caller.priority.rawValue < lowest.rawValue { lowest = caller.priority }
                caller.done.resume(returning: outcome)
            }
            guard let round else { continue }
            Task.detached(priority: lowest) {
                // Behind every caller resumed above; once more behind any of them still running on another thread.
                await Task.yield()
                if self.waiting.withLock({ $0.roundPassed(round) }) { self.commits.async { self.writeGroups() } }
            }
            return
        }
    }

    /// On the commit thread, at `close()`: writes every waiting caller's group at once.
    private func writeWaiting() {
        while let group = waiting.withLock({ $0.nextGroup(limit: Self.maxGroupEvents) }) {
            for (caller, outcome) in zip(group.callers, commit(group)) { caller.done.resume(returning: outcome) }
        }
    }

    /// Writes one group; a caller whose batch the writer refuses is taken out
    /// and the rest written. Returns each caller's outcome, in order.
    private func commit(_ group: WaitingAppends.Group) -> [Result<ArraySlice<AppendResult>, LedgerError>] {
        // Every caller's outcome is set below (written, refused alone, or failed with the group).
        var outcomes = [Result<ArraySlice<AppendResult>, LedgerError>](
            repeating: .failure(LedgerError(.io, path: path, "the group was not written")), count: group.callers.count)
        var batch = group.events
        // The callers whose events are in `batch`, in order.
        var callers = Array(group.callers.indices)
        while !callers.isEmpty {
            let (outcome, usable) = writer.withLock { w in
                let outcome = Result { () throws(LedgerError) in try w.append(batch) }
                if case .success(let results) = outcome {
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
        return outcomes
    }

    // MARK: Live state

    /// Starts keeping a learner's state live: reads the learner's events once
    /// (from `snapshot` when it matches the log, then only the lines after it,
    /// and saves the snapshot again), then folds each event appended through
    /// this store. Does nothing when the learner is already tracked.
    ///
    /// `options` also sets the state's day (``StateOptions/day``; nil: the day
    /// of the learner's latest event), retry limit and streak rule.
    public func track(_ options: StateOptions, snapshot: String? = nil) async throws(LedgerError) {
        if learners.withLock({ $0.byUser[options.user] != nil }) { return }
        try await Self.offThread { () throws(LedgerError) in
            try self.writer.withLock { (_) throws(LedgerError) in  // no group is written while the log is read
                if self.learners.withLock({ $0.byUser[options.user] != nil }) { return }
                var projector = LearnerProjector(options: options)
                let read = try LogReader(path: self.path).read(.init(user: options.user, snapshot: snapshot)) { projector.apply($0) }
                self.learners.withLock { $0.byUser[options.user] = LiveLearners.Learner(projector: projector) }
                // A snapshot that cannot be saved costs the next start a full read, nothing else.
                try? read.saveSnapshot()
            }
        }
    }

    /// The learner's current state (tracking the learner first if needed, with
    /// default options); `day` nil: the tracked options' day.
    public func state(of user: String, day: Day? = nil) async throws(LedgerError) -> LearnerState {
        try await track(StateOptions(user: user))
        return learners.withLock { $0.byUser[user].map { $0.projector.state(day: day) } } ?? LearnerProjector(options: StateOptions(user: user)).state(day: day)
    }

    /// The learner's state now, then after every group commit that appended
    /// events of this learner (an observer that falls behind sees the latest
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

    /// Writes what is waiting, closes the log and ends every ``states(of:)``
    /// sequence; later appends are refused.
    public func close() async {
        waiting.withLock { $0.refuse(because: "it is closed") }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            commits.async {
                // Callers that waited for a round to pass are written now.
                self.writeWaiting()
                self.writer.withLock { $0.close() }
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
