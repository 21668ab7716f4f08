import Dispatch

extension DispatchSemaphore {
    /// Runs `body` holding this semaphore as a lock (made with value 1):
    /// the short reads of guarded state the server's queues and signals make.
    @inline(__always)
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        wait()
        defer { signal() }
        return try body()
    }
}
