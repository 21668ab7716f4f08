import Events

/// Appends events to a log file, durably, safely alongside other writer processes.
///
/// - Opening takes the writer lock briefly: it checks every line (as `verify`
///   does), moves a torn tail to a side file, and builds its head and id index.
/// - Each append takes the lock (`flock(LOCK_EX)`), reads only the lines other
///   writers added since, writes the whole batch with one write, fsyncs, and
///   releases the lock. Readers take no lock.
/// - A failed fsync makes the writer unusable (the batch is reported
///   `.notDurable`): reopen the log and append the batch again; its ids make
///   that safe.
///
/// ```swift
/// let writer = try LedgerWriter(path: "progress.log")
/// for r in writer.recoveries { print(r, to: &standardError) }
/// let results = try writer.append([event1, event2])   // fsync'd when it returns
/// ```
///
/// Not thread-safe: use one writer per thread (or process), each with its own open.
public final class LedgerWriter {
    /// The log's path.
    public let path: String
    /// Torn tails this writer moved to side files (at open, or found at an append
    /// after another writer crashed), in order.
    public internal(set) var recoveries: [Recovery] = []

    enum State {
        case open
        /// Appends are refused with this error.
        case broken(LedgerError)
        case closed
    }

    var system: System
    var fd: CInt
    var state: State = .open
    /// The lines this writer has seen and checked, their hashes and ids.
    var chain = ChainState()
    /// Bytes of complete lines this writer has seen (where the next line starts).
    var knownSize = 0
    /// Where each line the writer has seen starts (line n at `lineStarts[n - 1]`):
    /// to read a line back when an id repeats (the `conflicting_duplicate` check).
    var lineStarts: [Int] = []
    /// The file's identity, to notice a replaced log.
    var identity: (device: UInt64, inode: UInt64)
    /// Whether deferred batches await `sync()`.
    var unsynced = false
    /// How long the last batch's fsync took, in nanoseconds (a server's metrics read it).
    package internal(set) var lastFsyncNanoseconds: UInt64 = 0

    /// Opens (or creates, mode 0600) the log at `path` for appending.
    ///
    /// Refuses a symlink, a directory, a missing directory, a non-regular file,
    /// a file that is not writable or is read-only by its mode, and a damaged
    /// log (`.damaged`, with verify's message). Moves a torn tail to a side file
    /// (see ``recoveries``).
    public convenience init(path: String, create: Bool = true) throws(LedgerError) {
        try self.init(path: path, create: create, system: System())
    }

    init(path: String, create: Bool, system: System) throws(LedgerError) {
        self.path = path
        self.system = system
        let (fd, created) = try LedgerWriter.openLog(path, create: create, system: system)
        self.fd = fd
        let status: FileStatus
        do {
            status = try system.fstat(fd)
        } catch {
            system.close(fd)
            throw LedgerError(error, path: path, doing: "reading the log's status")
        }
        identity = (status.device, status.inode)
        do throws(LedgerError) {
            guard status.kind == .regular else {
                throw LedgerError(.notRegularFile, path: path, "is not a regular file (a FIFO, socket or device?)")
            }
            guard status.ownerWritable else {
                throw LedgerError(.permission, path: path,
                                  "is read-only (mode \(String(status.permissions, radix: 8))); the ledger will not append to it")
            }
            // A new log's directory entry must be durable before the first append is
            // acknowledged. An empty log may be one whose creator failed before that
            // sync (or crashed), so its next writer makes the entry durable too.
            if created || status.size == 0 { try syncDirectory() }
            try withLock { () throws(LedgerError) in
                try catchUp()
                if knownSize > 0 {
                    do throws(SystemCallError) { try system.fsync(fd) } catch {
                        throw LedgerError(.io, error, path: path, "making the existing log durable before appending failed")
                    }
                }
            }
        } catch {
            system.close(fd)
            self.fd = -1
            state = .closed
            throw error
        }
    }

    deinit { close() }

    /// The head as this writer last saw it: the last line's seq and SHA-256.
    public var head: Head { chain.head }

    /// Whether the writer can still append (false after a failed fsync or undo, or `close()`).
    public var isUsable: Bool {
        if case .open = state { return true }
        return false
    }

    /// Closes the log. Batches appended with `.deferred` and not yet `sync()`ed may not be durable.
    public func close() {
        guard fd >= 0 else { return }
        system.close(fd)
        fd = -1
        if case .open = state { state = .closed }
    }

    /// Forces every batch appended so far to disk (after `.deferred` appends).
    ///
    /// A failed fsync makes the writer unusable and throws `.notDurable`.
    public func sync() throws(LedgerError) {
        try checkUsable()
        do {
            try system.fsync(fd)
            unsynced = false
        } catch {
            let e = LedgerError(.notDurable, error, path: path,
                                "fsync failed: the batches appended since the last sync may not be on disk. "
                                    + "This writer is now unusable: reopen the log and append them again (their ids make that safe)")
            state = .broken(e)
            throw e
        }
    }

    func checkUsable() throws(LedgerError) {
        switch state {
        case .open: return
        case .broken(let e):
            throw LedgerError(.unusable, path: path, "this writer can no longer append (reopen the log): \(e.message)", cause: e.cause)
        case .closed:
            throw LedgerError(.unusable, path: path, "this writer is closed")
        }
    }

    /// Runs `body` holding the exclusive writer lock.
    func withLock<T>(_ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        do { try system.lockExclusive(fd) } catch {
            throw LedgerError(error, path: path, doing: "taking the writer lock (flock)")
        }
        defer { _ = try? system.unlock(fd) }
        return try body()
    }

    /// Under the lock: reads the lines added since this writer last looked,
    /// checking each; moves a torn tail aside.
    func catchUp() throws(LedgerError) {
        let now: FileStatus
        do { now = try system.fstat(fd) } catch { throw LedgerError(error, path: path, doing: "reading the log's status") }
        try checkIdentity()
        if now.size < knownSize {
            let e = LedgerError(.replaced, path: path,
                                "the log is \(now.size) bytes, shorter than the \(knownSize) this writer already saw: "
                                    + "someone truncated it; run verify and reopen")
            state = .broken(e)
            throw e
        }
        guard now.size > knownSize else { return }
        // Each line is checked as verify checks it (no record made) and added to the
        // chain in place (copying the chain would copy the whole id index); `knownSize`
        // follows the lines accepted, so a read error leaves the two consistent.
        func accept(_ line: borrowing CheckedLine) throws(LedgerError) {
            if let problem = chain.accept(line) {
                throw LedgerError(.damaged, path: path,
                                  "\(problem): the log is damaged; the ledger appends nothing to it (run verify)",
                                  cause: .problem(problem))
            }
            lineStarts.append(line.offset)
            knownSize = line.offset + line.length + 1
        }
        let scanner = LineScanner(system: system, fd: fd, path: path)
        let tail: TornTail?
        do {
            if now.size - knownSize >= LedgerWriter.parallelCheckBytes {
                // A long stretch (opening a log): decode and hash on both cores, as verify does.
                tail = try LinePipeline(scanner: scanner, keep: .none)
                    .run(from: knownSize, to: now.size, firstLine: chain.count + 1) { (line) throws(LedgerError) in try accept(line) }
            } else {
                tail = try scanner.scan(from: knownSize, to: now.size, firstLine: chain.count + 1) { (line) throws(LedgerError) in
                    try accept(line.checked(keepRecord: false))
                }
            }
        } catch {
            if error.code == .damaged { state = .broken(error) }
            throw error
        }
        knownSize = tail?.offset ?? now.size
        if let tail { try recover(tail) }
    }

    /// From how many new bytes a catch-up checks lines on worker threads.
    static let parallelCheckBytes = 4 << 20

    /// Checks that the path still names the file this writer has open.
    private func checkIdentity() throws(LedgerError) {
        let status: FileStatus
        do {
            status = try system.lstat(path)
        } catch where error.errno == .noEntry || error.errno == .notDirectory {
            let e = LedgerError(.replaced, error, path: path, "the log was removed or renamed while this writer had it open")
            state = .broken(e)
            throw e
        } catch {
            // Any other failure (EIO...) says nothing about the file being replaced:
            // report it as what it is and leave the writer usable.
            throw LedgerError(error, path: path, doing: "checking that the log is still the file this writer opened")
        }
        guard status.device == identity.device, status.inode == identity.inode else {
            let e = LedgerError(.replaced, path: path, "the log was replaced by another file while this writer had it open; reopen it")
            state = .broken(e)
            throw e
        }
    }

    /// fsyncs the log's directory, so a new file (or side file) survives a crash.
    func syncDirectory() throws(LedgerError) {
        do { try system.syncDirectory(of: path) } catch {
            throw LedgerError(.io, error, path: LedgerWriter.directory(of: path),
                              "making the new file's directory entry durable failed")
        }
    }

    /// The directory holding `path`.
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }
}
