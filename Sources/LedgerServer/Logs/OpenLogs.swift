import Dispatch
import Events
import Ledger

/// The learner logs the server keeps open: one `LedgerWriter` per learner,
/// so a push costs one write and one fsync (opening a writer reads and
/// fsyncs the whole log first), and a pull finds its first line by the
/// writer's own index instead of reading the log.
///
/// Requests for one learner take that learner's lock in turn (the writer is
/// not thread-safe, and appends to one log are serial anyway); requests for
/// different learners run at once, each fsync on its own thread. At most
/// `capacity` writers stay open: the least recently used one not in use is
/// closed when another is opened. A writer that can no longer append (a
/// failed fsync, a log replaced by `erase`) is closed, and the next request
/// opens the log again.
final class OpenLogs: @unchecked Sendable {
    /// One learner's writer and its lock.
    private final class Entry: @unchecked Sendable {
        let lock = DispatchSemaphore(value: 1)
        /// Guarded by `lock`.
        var writer: LedgerWriter?
        /// Guarded by the map's lock.
        var users = 0
        var lastUse: UInt64 = 0
    }

    let directory: LedgerDirectory
    let capacity: Int
    /// Told of every writer opened and closed.
    private let metrics: ServerMetrics
    private let lock = DispatchSemaphore(value: 1)
    private var entries: [ExactString: Entry] = [:]
    private var tick: UInt64 = 0

    init(directory: LedgerDirectory, capacity: Int, metrics: ServerMetrics = ServerMetrics()) {
        self.directory = directory
        self.metrics = metrics
        self.capacity = max(1, capacity)
    }

    /// Runs `body` with `user`'s writer, holding that learner's lock. With
    /// `create`, a missing learner log is created (its folder too); without,
    /// `body` gets nil for it and nothing is made. A writer found replaced
    /// (`erase` rewrote the log) is reopened and `body` run once more.
    func withWriter<T>(user: String, create: Bool, _ body: (LedgerWriter?) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let entry = take(user)
        defer { give(entry) }
        entry.lock.wait()
        defer { entry.lock.signal() }
        var attempt = 0
        while true {
            attempt += 1
            do throws(LedgerError) {
                if entry.writer == nil {
                    entry.writer = try open(user, create: create)
                    if entry.writer != nil { metrics.learnerLogs(+1) }
                }
                return try body(entry.writer)
            } catch {
                // A writer that cannot go on is dropped: the next request opens the log afresh.
                if let writer = entry.writer, !writer.isUsable || error.code == .replaced || error.code == .damaged {
                    writer.close()
                    entry.writer = nil
                    metrics.learnerLogs(-1)
                }
                if error.code == .replaced, attempt == 1 { continue }
                throw error
            }
        }
    }

    private func open(_ user: String, create: Bool) throws(LedgerError) -> LedgerWriter? {
        let path = directory.learnerPath(user: user)
        if create {
            try directory.makeFolder(forLearner: LedgerDirectory.learnerName(user: user))
            return try LedgerWriter(path: path, create: true)
        }
        do { return try LedgerWriter(path: path, create: false) } catch {
            if error.code == .notFound { return nil }
            throw error
        }
    }

    private func take(_ user: String) -> Entry {
        lock.wait()
        defer { lock.signal() }
        let entry = entries[ExactString(user)] ?? Entry()
        entries[ExactString(user)] = entry
        entry.users += 1
        tick += 1
        entry.lastUse = tick
        return entry
    }

    /// Gives `entry` back. Beyond `capacity` learners, closes the least
    /// recently used idle writers down to three quarters of it (so the sort
    /// is not paid on every request).
    private func give(_ entry: Entry) {
        lock.wait()
        defer { lock.signal() }
        entry.users -= 1
        guard entries.count > capacity else { return }
        let idle = entries.filter { $0.value.users == 0 }.sorted { $0.value.lastUse < $1.value.lastUse }
        for (user, old) in idle.prefix(entries.count - capacity * 3 / 4) {
            // Idle: no thread holds or waits for its lock, and none can take it while the map is locked.
            if let writer = old.writer {
                writer.close()
                metrics.learnerLogs(-1)
            }
            entries[user] = nil
        }
    }
}
