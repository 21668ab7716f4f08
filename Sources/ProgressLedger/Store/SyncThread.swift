import Dispatch
import Foundation

/// A thread of the store's own that runs its jobs one after another, in the
/// order given: where a group's `fsync` runs (one per group the store lets be
/// on disk at once).
///
/// Not a Dispatch queue: a job handed to a serial queue from a thread of the
/// Swift cooperative pool (the caller that completes a group, which writes it)
/// waited 250–800 µs for a worker thread under load (`store-bench group`'s
/// `sync-wake-us`); this thread sleeps on a semaphore and is woken at once.
///
/// Sendable without `@unchecked`: its state is the `Guarded` job list (one
/// lock around every access) and a `DispatchSemaphore`, both Sendable.
final class SyncThread: Sendable {
    /// The jobs not yet run, in order; nil: end the thread once they have run.
    private let jobs = Guarded<[(@Sendable () -> Void)?]>([])
    /// Signalled once per job (and once for the end).
    private let ready = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name`.
    init(name: String) {
        let thread = Thread { [jobs, ready] in
            while true {
                ready.wait()
                // Outer nil: no job (cannot happen: one signal per entry); inner nil: the end.
                let entry: (@Sendable () -> Void)?? = jobs.withLock { $0.isEmpty ? .none : .some($0.removeFirst()) }
                guard let entry else { continue }
                guard let job = entry else { return }
                job()
            }
        }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the thread after the jobs given before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    /// Waits until every job given before this call has run (not on the thread itself).
    func drain() {
        let done = DispatchSemaphore(value: 0)
        async { done.signal() }
        done.wait()
    }

    /// Ends the thread once the jobs given before have run.
    func stop() {
        jobs.withLock { $0.append(nil) }
        ready.signal()
    }
}

/// Where one `fsync` slot of the store runs its `fsync`s, in order. The
/// slots of overlapping groups are Dispatch queues: the commit thread (a
/// Dispatch thread) hands the groups over, and wakes those sooner than a
/// thread waiting on a semaphore (40–55 against 190–220 µs a group at load
/// 11). One slot more, for a group alone on disk (one at a time), is a
/// `SyncThread`: its writer is the caller that completed it, on a
/// cooperative-pool thread, from which a Dispatch worker was woken in
/// 250–480 µs, this thread in 140.
enum SyncRunner: Sendable {
    case thread(SyncThread)
    case queue(DispatchQueue)

    /// Slot `k` of `slots` overlapping ones (`k == slots`: the alone slot).
    init(slot k: Int, of slots: Int) {
        let name = "ProgressLedger.LedgerStore.fsync-\(k)"
        self = k == slots ? .thread(SyncThread(name: name)) : .queue(DispatchQueue(label: name))
    }

    /// Runs `job` after the jobs given before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        switch self {
        case .thread(let thread): thread.async(job)
        case .queue(let queue): queue.async(execute: job)
        }
    }

    /// Waits until every job given before has run.
    func drain() {
        switch self {
        case .thread(let thread): thread.drain()
        case .queue(let queue): queue.sync {}
        }
    }

    /// Ends its thread, if it has one, once the jobs given before have run.
    func stop() {
        if case .thread(let thread) = self { thread.stop() }
    }
}
