import Dispatch
import Ledger

/// A count of the changes a store has seen, that requests with `wait=`
/// sleep on: a push (or a notification from another process) ``signal()``s
/// it, and every waiter wakes. A waiter reads ``generation`` before it
/// looks for lines and waits ``wait(since:seconds:)`` on that value, so a
/// change that lands between its look and its wait is never slept through.
final class ChangeSignal: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    /// Guarded by `lock`.
    private var count: UInt64 = 0
    private var waiters: [DispatchSemaphore] = []

    /// Changes so far.
    var generation: UInt64 {
        lock.locked { count }
    }

    /// A change: wakes every waiter.
    func signal() {
        lock.wait()
        count &+= 1
        let woken = waiters
        waiters.removeAll()
        lock.signal()
        for w in woken { w.signal() }
    }

    /// Returns once ``generation`` is past `seen`, or after `seconds`.
    func wait(since seen: UInt64, seconds: Double) {
        let semaphore = DispatchSemaphore(value: 0)
        lock.wait()
        guard count == seen else { lock.signal(); return }
        waiters.append(semaphore)
        lock.signal()
        if semaphore.wait(timeout: .now() + seconds) == .timedOut {
            lock.wait()
            waiters.removeAll { $0 === semaphore }
            lock.signal()
        }
    }
}
