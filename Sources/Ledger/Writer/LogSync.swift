import Events

/// An `fsync` of a writer's log that can run on another thread while the
/// writer writes its next batch: what a store's group commit keeps one of per
/// group it lets be on disk at once.
///
/// It holds a descriptor of its own, opened on the same file (checked by
/// device and inode), so that a write-back error is reported to every
/// descriptor's next `fsync`: with one descriptor shared by overlapping
/// `fsync`s, the first to return would take the error and another could
/// return success for lost bytes. It touches none of the writer's state:
/// the caller reports a failure back to the writer
/// (``LedgerWriter/markNotDurable(_:first:count:)``).
package final class LogSync: @unchecked Sendable {
    // `@unchecked Sendable`: `fd` is set at init and at `close()`, which the
    // owner calls once no `sync()` runs (a store closes its syncs after the last one returned).
    private let system: System
    private var fd: CInt

    /// Opens the file at `path`, which must be the file `identity` names.
    init(path: String, identity: (device: UInt64, inode: UInt64), system: System) throws(LedgerError) {
        self.system = system
        do { fd = try system.open(path, .read) } catch { throw LedgerError(error, path: path, doing: "opening the log again to fsync it") }
        let status: FileStatus
        do { status = try system.fstat(fd) } catch {
            system.close(fd)
            throw LedgerError(error, path: path, doing: "reading the log's status")
        }
        guard status.device == identity.device, status.inode == identity.inode else {
            system.close(fd)
            throw LedgerError(.replaced, path: path, "the log was replaced by another file while its writer had it open; reopen it")
        }
    }

    deinit { close() }

    /// `fsync`s the file: every byte written to it before the call is durable when it returns.
    package func sync() throws(SystemCallError) {
        try system.fsync(fd)
    }

    /// Closes the descriptor.
    package func close() {
        guard fd >= 0 else { return }
        system.close(fd)
        fd = -1
    }
}

extension LedgerWriter {
    /// A descriptor of this writer's log for `fsync`s on other threads (see ``LogSync``).
    package func openSync() throws(LedgerError) -> LogSync {
        try checkUsable()
        return try LogSync(path: path, identity: identity, system: system)
    }

    /// Records that the `fsync` of `count` lines from seq `first`, written
    /// with `.deferred` durability, failed: the writer refuses every later
    /// append, as after its own failed `fsync`; returns the `.notDurable` error.
    package func markNotDurable(_ error: SystemCallError, first: Int, count: Int) -> LedgerError {
        let e = notDurable(error, first: first, count: count)
        state = .broken(e)
        return e
    }
}
