import Dispatch
import Ledger

/// A request read whole, for a worker to answer.
struct Job: Sendable {
    /// The connection it came on.
    var connection: Int
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

    /// No more jobs: workers end once the queue is empty.
    func close() {
        lock.wait()
        closed = true
        lock.signal()
        available.signal()
    }
}

/// What workers and signal handlers tell the reactor: answers ready, or stop.
/// Each post wakes the reactor's `poll` through a pipe (one byte per wait,
/// not per post).
///
/// `@unchecked Sendable`: every member but `lock` and the pipe's descriptor
/// is used only between `lock.wait()` and `lock.signal()`.
final class Inbox: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var answers: [(connection: Int, response: Response)] = []
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

    /// An answer for `connection`.
    func post(_ response: Response, for connection: Int) {
        lock.wait()
        answers.append((connection, response))
        wakeIfNeeded()
    }

    /// Asks the server to stop (SIGTERM): stop accepting, finish what is in flight.
    func requestStop() {
        lock.wait()
        stop = true
        wakeIfNeeded()
    }

    /// The answers posted since the last call, and whether a stop was asked.
    /// Called by the reactor after its poll.
    func take() -> (answers: [(connection: Int, response: Response)], stop: Bool) {
        var byte: UInt8 = 0
        while (try? withUnsafeMutableBytes(of: &byte) { (b) throws(SystemCallError) in try system.readAvailable(wakeRead, into: b) }) == 1 {}
        lock.wait()
        defer { lock.signal() }
        woken = false
        let taken = answers
        answers.removeAll(keepingCapacity: true)
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
