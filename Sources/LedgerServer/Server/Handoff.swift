import Dispatch
import Ledger

/// A request read whole, for a worker to answer: the worker holds its
/// connection until it gives it back through the ``Inbox``.
struct Job: Sendable {
    /// The connection it came on.
    var connection: Connection
    /// Its route.
    var route: Route
    /// What the handler gets.
    var request: RouteRequest
}

/// The requests waiting for a worker, first in first out. Workers block in
/// ``pop()`` until one comes or the queue is closed.
///
/// `@unchecked Sendable`: `items`, `head` and `closed` are used only between
/// `lock.wait()` and `lock.signal()`.
final class JobQueue: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private let available = DispatchSemaphore(value: 0)
    private var items: [Job] = []
    private var head = 0
    private var closed = false

    /// Adds a job; one waiting worker wakes.
    func push(_ job: Job) {
        lock.wait()
        items.append(job)
        lock.signal()
        available.signal()
    }

    /// The next job; nil once the queue is closed and empty.
    func pop() -> Job? {
        available.wait()
        lock.wait()
        defer { lock.signal() }
        guard head < items.count else {
            available.signal()   // closed: let the next worker see it too
            return nil
        }
        let job = items[head]
        head += 1
        if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        return job
    }

    /// Whether jobs wait for a worker (a worker then gives back a connection instead of waiting on it).
    var hasWaiting: Bool {
        lock.locked { head < items.count }
    }

    /// No more jobs: workers end once the queue is empty.
    func close() {
        lock.wait()
        closed = true
        lock.signal()
        available.signal()
    }
}

/// What workers and signal handlers tell the reactor: connections given back, or stop.
/// Each post wakes the reactor's `poll` through a pipe (one byte per wait,
/// not per post).
///
/// `@unchecked Sendable`: every member but `lock` and the pipe's descriptor
/// is used only between `lock.wait()` and `lock.signal()`.
final class Inbox: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var returned: [Connection] = []
    private var stop = false
    private var woken = false
    private let system = System()
    /// The pipe's ends: the reactor polls `wakeRead`.
    let wakeRead: CInt
    private let wakeWrite: CInt

    init() throws(SystemCallError) {
        (wakeRead, wakeWrite) = try system.makePipe()
    }

    deinit {
        system.close(wakeRead)
        system.close(wakeWrite)
    }

    /// Gives `connection` back to the reactor (to wait for its next request,
    /// finish sending, linger, or close: its phase says which).
    func giveBack(_ connection: Connection) {
        lock.wait()
        returned.append(connection)
        wakeIfNeeded()
    }

    /// Whether a stop was asked (workers then end connections after their answer).
    var isStopping: Bool {
        lock.locked { stop }
    }

    /// Asks the server to stop (SIGTERM): stop accepting, finish what is in flight.
    func requestStop() {
        lock.wait()
        stop = true
        wakeIfNeeded()
    }

    /// The connections given back since the last call, and whether a stop was
    /// asked. Called by the reactor after its poll.
    func take() -> (returned: [Connection], stop: Bool) {
        var byte: UInt8 = 0
        while (try? withUnsafeMutableBytes(of: &byte) { (b) throws(SystemCallError) in try system.readAvailable(wakeRead, into: b) }) == 1 {}
        lock.wait()
        defer { lock.signal() }
        woken = false
        let taken = returned
        returned.removeAll(keepingCapacity: true)
        return (taken, stop)
    }

    /// Called holding `lock`; releases it.
    private func wakeIfNeeded() {
        let wake = !woken
        woken = true
        lock.signal()
        if wake {
            var byte: UInt8 = 1
            _ = withUnsafeBytes(of: &byte) { try? system.writeAll(wakeWrite, $0) }
        }
    }
}
