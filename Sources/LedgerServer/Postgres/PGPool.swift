#if canImport(CLibpq)
import Dispatch

/// Connections to one database, at most `capacity` open, each used by one
/// thread at a time. A connection that failed is dropped; the next caller
/// connects afresh (with a multi-host URI and `target_session_attrs=read-write`,
/// to whichever server is the primary now).
final class PGPool: @unchecked Sendable {
    private let uri: String
    private let lock = DispatchSemaphore(value: 1)
    private let slots: DispatchSemaphore
    /// Guarded by `lock`.
    private var idle: [PGConnection] = []

    init(uri: String, capacity: Int) {
        self.uri = uri
        slots = DispatchSemaphore(value: max(1, capacity))
    }

    /// Runs `body` with a connection; a connection that is no longer usable
    /// afterwards, or that failed with a retryable error (a server turned
    /// read-only, shutting down), is closed: the next caller connects anew.
    func with<T>(_ body: (PGConnection) throws(PGError) -> T) throws(PGError) -> T {
        slots.wait()
        defer { slots.signal() }
        lock.wait()
        let reused = idle.popLast()
        lock.signal()
        let connection: PGConnection
        if let reused { connection = reused } else { connection = try PGConnection(uri) }
        do throws(PGError) {
            let result = try body(connection)
            keep(connection)
            return result
        } catch {
            if error.kind != .unavailable { keep(connection) }
            throw error
        }
    }

    private func keep(_ connection: PGConnection) {
        guard connection.isUsable else { return }
        lock.wait()
        idle.append(connection)
        lock.signal()
    }
}
#endif
