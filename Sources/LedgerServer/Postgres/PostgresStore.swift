#if canImport(CLibpq)
import Dispatch
import Events
import Ledger

/// The learner logs in PostgreSQL (`serve --store postgresql://…`): one row
/// a line, `progress_ledger_lines(learner bytea, seq bigint, line bytea, tx
/// xid8)`, primary key (learner, seq). A row's `line` is the learner log's
/// line byte for byte (without its LF): `export --store URI DIR` writes the
/// ledger directory they make.
///
/// Appends to one learner are serialised by the database, never by this
/// process: a batch is sealed after the learner's last line this process has
/// seen (``StoredLog``, the writer's rules) and inserted in one statement, its
/// own transaction (a small push: with other learners' small pushes waiting
/// at the same moment, ``GroupCommit``); when another process stored a line at that seq first,
/// the primary key refuses the insert (`23505`), and the batch is sealed
/// again after catching up (so an id that other process stored is found and
/// answered `alreadyPresent`). A push is acknowledged once its statement has
/// committed, with the server's `synchronous_commit` (with a synchronous
/// standby: on two machines). A lost connection, a server shutting down or a
/// primary turned standby answers `503` (the client sends the push again; its
/// ids make that safe), never a `200` for a line not committed.
///
/// Each process keeps the logs it has seen (their heads and ids) as a cache
/// of what the database holds: always a prefix of it, since a line is added
/// only after its commit and rows are never changed.
final class PostgresStore: LearnerStore, @unchecked Sendable {
    /// The table, made by the first server on an empty database.
    static let schema = """
        BEGIN;
        SELECT pg_advisory_xact_lock(7311640027);
        CREATE TABLE IF NOT EXISTS progress_ledger_lines (
            learner bytea NOT NULL,
            seq bigint NOT NULL CHECK (seq >= 1),
            line bytea NOT NULL,
            tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
            PRIMARY KEY (learner, seq)
        );
        CREATE INDEX IF NOT EXISTS progress_ledger_lines_feed ON progress_ledger_lines (tx, seq);
        COMMIT;
        """
    /// The channel a push notifies (after its commit) and `wait=` listens on.
    static let channel = "progress_ledger"
    /// The most bytes of lines a pull or a page of the feed holds (at least
    /// one line): a page is read into memory whole, so `limit` alone does not
    /// bound it (lines are up to 1 MiB). The client asks again from the last line.
    static let pageBytes = 16 << 20
    /// How often a push is tried again after another process took its seq first.
    static let sealAttempts = 16

    let uri: String
    let pool: PGPool
    let changes = ChangeSignal()
    private let logs: StoredLogs
    private let notifier: Notifier
    private let groups: GroupCommit
    /// How many groups of small pushes commit at once (``GroupCommit``; at most the connections).
    static let committers = 8

    /// Connects (refusing a database it cannot reach or write), makes the
    /// table when missing, and starts listening for other processes' pushes.
    init(uri: String, connections: Int, cachedLogs: Int = 4096) throws(PGError) {
        self.uri = uri
        pool = PGPool(uri: uri, capacity: connections)
        logs = StoredLogs(capacity: cachedLogs)
        notifier = Notifier(uri: uri, changes: changes)
        try pool.with { (c) throws(PGError) in try c.runScript(Self.schema) }
        groups = try GroupCommit(pool: pool, committers: min(Self.committers, max(1, connections)))
        notifier.start()
    }

    // MARK: pushes

    func push(user: String, events: [NewEvent], lines: [AppendInput.Line]) throws(HTTPError) -> (results: [AppendResult], head: Head, durableNanoseconds: UInt64) {
        let learner = Array(user.utf8)
        let outcome: (results: [AppendResult], head: Head, durableNanoseconds: UInt64) = try logs.with(learner, name: Self.name(user)) { (log) throws(HTTPError) in
            for _ in 0..<Self.sealAttempts {
                // A connection only when an id repeats and its line is read back.
                var readBack: PGError?
                let result = Result { () throws(LedgerError) in
                    try log.seal(events) { (seq) throws(LedgerError) in
                        do throws(PGError) {
                            return try pool.with { (c) throws(PGError) in try Self.lineBytes(c, learner, seq: seq, name: log.name) }
                        } catch {
                            readBack = error
                            throw LedgerError(.io, path: log.name, "reading line \(seq) back failed: \(error)")
                        }
                    }
                }
                if let readBack, readBack.kind == .unavailable { throw Self.answer(readBack) }
                let sealed: SealedLines
                switch result {
                case .success(let s): sealed = s
                case .failure(let error): throw HTTPError(append: error, lines: lines, directory: nil)
                }
                let new = sealed.lines
                guard !new.isEmpty else { return (sealed.results, log.head, 0) }
                let start = System.monotonicNanoseconds()
                do throws(PGError) {
                    if GroupCommit.takes(new) {
                        try groups.store(learner: learner, lines: new)
                    } else {
                        try pool.with { (c) throws(PGError) in try Self.insert(c, learner, new) }
                    }
                } catch {
                    // Another process stored a line at this seq first: catch up and seal again.
                    if error.kind == .seqTaken { try catchUp(log, learner); continue }
                    throw Self.answer(error)
                }
                log.record(sealed)
                return (sealed.results, log.head, System.monotonicNanoseconds() - start)
            }
            throw HTTPError.unavailable("other servers kept appending to this learner first; send the push again")
        }
        if outcome.results.contains(where: { $0.status == .appended }) {
            changes.signal()
            notifier.poke()
        }
        return outcome
    }

    /// One statement, its own transaction: the lines of one learner (a push
    /// too large for a group, or one of a group that failed, stored alone).
    static func insert(_ c: PGConnection, _ learner: [UInt8], _ lines: [(seq: Int, bytes: ArraySlice<UInt8>)]) throws(PGError) {
        // At most 65,535 parameters a statement: long batches go in one transaction of several statements.
        let chunk = 16_000
        if lines.count > chunk { try c.run("BEGIN") }
        do throws(PGError) {
            var start = 0
            while start < lines.count {
                let part = lines[start..<min(lines.count, start + chunk)]
                var sql = "INSERT INTO progress_ledger_lines (learner, seq, line) VALUES "
                var values: [PGValue] = [.bytea(learner)]
                for (k, line) in part.enumerated() {
                    sql += (k == 0 ? "" : ",") + "($1,$\(2 * k + 2),$\(2 * k + 3))"
                    values.append(.int8(line.seq))
                    values.append(.bytea(line.bytes))
                }
                try c.run(sql, values, prepared: part.count <= 4)   // the statements of small pushes, parsed once a connection
                start += chunk
            }
            if lines.count > chunk { try c.run("COMMIT") }
        } catch {
            if lines.count > chunk, c.isUsable { _ = try? c.run("ROLLBACK") }
            throw error
        }
    }

    /// Reads the learner's lines after what `log` has seen into it, each checked.
    private func catchUp(_ log: StoredLog, _ learner: [UInt8]) throws(HTTPError) {
        let rows: PGRows
        do throws(PGError) {
            rows = try pool.with { (c) throws(PGError) in
                try c.run("SELECT seq, line FROM progress_ledger_lines WHERE learner = $1 AND seq > $2 ORDER BY seq",
                          [.bytea(learner), .int8(log.head.seq)])
            }
        } catch {
            throw Self.answer(error)
        }
        for row in rows.rows {
            guard let seq = PGValue.integer(row[0]), Int(seq) == log.head.seq + 1, let line = row[1] else {
                throw HTTPError(500, "damaged", "\(log.name): the stored lines skip from seq \(log.head.seq); nothing is appended")
            }
            do throws(LedgerError) { try log.accept(line) } catch {
                throw HTTPError(server: error, directory: nil)
            }
        }
    }

    /// The stored line `seq` of `learner` (an id repeats: its line is compared).
    private static func lineBytes(_ c: PGConnection, _ learner: [UInt8], seq: Int, name: String) throws(PGError) -> [UInt8] {
        let rows = try c.run("SELECT line FROM progress_ledger_lines WHERE learner = $1 AND seq = $2", [.bytea(learner), .int8(seq)], prepared: true)
        guard let line = rows.rows.first?.first ?? nil else { throw PGError(.failed, "line \(seq) is missing from the store") }
        return line
    }

    // MARK: reads

    func head(user: String) throws(HTTPError) -> Head {
        let learner = Array(user.utf8)
        return try logs.with(learner, name: Self.name(user)) { (log) throws(HTTPError) in
            try catchUp(log, learner)
            return log.head
        }
    }

    func lines(user: String, after: Int, limit: Int) throws(HTTPError) -> (head: Head, body: Response.Body) {
        let learner = Array(user.utf8)
        return try logs.with(learner, name: Self.name(user)) { (log) throws(HTTPError) in
            // The head first, every line up to it checked: the lines sent are among those.
            try catchUp(log, learner)
            let head = log.head
            guard after < head.seq else { return (head, .bytes([])) }
            let rows: PGRows
            do throws(PGError) {
                rows = try pool.with { (c) throws(PGError) in
                    try c.run("""
                        SELECT line FROM (
                            SELECT seq, line, sum(length(line)) OVER (ORDER BY seq) AS upto FROM (
                                SELECT seq, line FROM progress_ledger_lines
                                WHERE learner = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4) page) sized
                        WHERE upto - length(line) < $5 ORDER BY seq
                        """, [.bytea(learner), .int8(after), .int8(head.seq), .int8(limit), .int8(Self.pageBytes)])
                }
            } catch {
                throw Self.answer(error)
            }
            var body: [UInt8] = []
            for row in rows.rows { body += (row[0] ?? []) + [0x0A] }
            return (head, .bytes(body))
        }
    }

    func forEachRecord(user: String, _ body: (Record) -> Void) throws(HTTPError) {
        let lines = try allLines(of: Array(user.utf8))
        do throws(LedgerError) {
            try StoredLog.forEachRecord(lines, name: Self.name(user)) { record in
                if record.user?.utf8.elementsEqual(user.utf8) == true { body(record) }
            }
        } catch {
            throw HTTPError(server: error, directory: nil)
        }
    }

    /// Every line of one learner, in seq order.
    func allLines(of learner: [UInt8]) throws(HTTPError) -> [[UInt8]] {
        do throws(PGError) {
            let rows = try pool.with { (c) throws(PGError) in
                try c.run("SELECT line FROM progress_ledger_lines WHERE learner = $1 ORDER BY seq", [.bytea(learner)])
            }
            return rows.rows.map { $0[0] ?? [] }
        } catch {
            throw Self.answer(error)
        }
    }

    /// Every learner, as the bytes of their id.
    func learners() throws(HTTPError) -> [[UInt8]] {
        do throws(PGError) {
            let rows = try pool.with { (c) throws(PGError) in
                try c.run("SELECT DISTINCT learner FROM progress_ledger_lines ORDER BY learner")
            }
            return rows.rows.map { $0[0] ?? [] }
        } catch {
            throw Self.answer(error)
        }
    }

    // MARK: reads of a ledger directory

    /// The directory `export --store` writes, from one snapshot, in a scratch folder removed after `body`.
    func withDirectory<T>(_ body: (LedgerDirectory) throws(LedgerError) -> T) throws(HTTPError) -> T {
        try withScratch(learner: nil) { (directory, _) throws(LedgerError) in try body(directory) }
    }

    /// `user`'s rows of one snapshot as their learner log, in a scratch folder removed after `body`.
    func withLearnerLog<T>(user: String, _ body: (LedgerDirectory, _ lines: Int?) throws(LedgerError) -> T) throws(HTTPError) -> T {
        try withScratch(learner: Array(user.utf8), body)
    }

    /// Writes the learner logs of one snapshot (every learner's, or only
    /// `learner`'s) into a new ledger directory in the scratch folder
    /// (`$TMPDIR`, else `/tmp`; mode 0700, files 0600), as `export --store`
    /// writes them but unchecked: the directory's readers check every line
    /// themselves, so a damaged row is answered as the directory answers
    /// the same line. Calls `body` with it and the lines written (nil: none),
    /// then removes it.
    private func withScratch<T>(learner: [UInt8]?, _ body: (LedgerDirectory, Int?) throws(LedgerError) -> T) throws(HTTPError) -> T {
        let folder = System.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = "\(folder)/progress-ledger-read-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        let directory: LedgerDirectory
        do throws(LedgerError) { directory = try LedgerDirectory.create(at: path) } catch {
            throw HTTPError(server: error, directory: nil)
        }
        defer { directory.removeScratch() }
        let written: Result<PostgresExport.Summary, PostgresExport.ExportFailure>
        do throws(PGError) {
            written = try pool.with { (c) throws(PGError) in
                let result = Result { () throws(PostgresExport.ExportFailure) in try PostgresExport.write(c, learner: learner, into: directory, check: false) }
                if case .failure(.database(let error)) = result { throw error }
                return result
            }
        } catch {
            throw Self.answer(error)
        }
        let summary: PostgresExport.Summary
        switch written {
        case .success(let s): summary = s
        case .failure(.database(let error)): throw Self.answer(error)
        case .failure(.ledger(let error)): throw HTTPError(server: error, directory: directory)
        }
        do throws(LedgerError) { return try body(directory, summary.events > 0 ? summary.events : nil) } catch {
            throw HTTPError(server: error, directory: directory)
        }
    }

    // MARK: the feed

    func feed(after cursor: FeedCursor, limit: Int) throws(HTTPError) -> FeedPage {
        let rows: PGRows
        var heldBack = false
        do throws(PGError) {
            let after: [PGValue] = [.text(String(cursor.transaction)), .int8(Int(clamping: cursor.seq))]
            rows = try pool.with { (c) throws(PGError) in
                let rows = try c.run("""
                    SELECT tx, seq, learner, line FROM (
                        SELECT tx, seq, learner, line, sum(length(line)) OVER (ORDER BY tx, seq) AS upto FROM (
                            SELECT tx, seq, learner, line FROM progress_ledger_lines
                            WHERE (tx, seq) > ($1::text::xid8, $2) AND tx < pg_snapshot_xmin(pg_current_snapshot())
                            ORDER BY tx, seq LIMIT $3) page) sized
                    WHERE upto - length(line) < $4 ORDER BY tx, seq
                    """, after + [.int8(limit), .int8(Self.pageBytes)])
                if rows.rows.isEmpty {
                    // Nothing to hand out: is a committed line waiting behind an older transaction?
                    let waiting = try c.run("""
                        SELECT count(*) FROM (SELECT 1 FROM progress_ledger_lines WHERE (tx, seq) > ($1::text::xid8, $2) LIMIT 1) t
                        """, after)
                    heldBack = (waiting.rows.first?.first).flatMap(PGValue.integer) ?? 0 > 0
                }
                return rows
            }
        } catch {
            throw Self.answer(error)
        }
        var page = FeedPage(lines: [], next: cursor, heldBack: heldBack)
        page.lines.reserveCapacity(rows.rows.count)
        for row in rows.rows {
            guard let tx = PGValue.integer(row[0]), let seq = PGValue.integer(row[1]), let learner = row[2], let line = row[3] else {
                throw HTTPError(500, "database", "a row of the feed has a NULL column")
            }
            page.lines.append(.init(user: String(decoding: learner, as: UTF8.self), seq: Int(seq), bytes: line))
            page.next = FeedCursor(transaction: tx, seq: seq)
        }
        return page
    }

    // MARK: helpers

    /// `learner "u-1"`: how errors name a stored log.
    static func name(_ user: String) -> String {
        var w = JSONWriter()
        w.value(.string(user))
        return "learner " + String(decoding: w.bytes, as: UTF8.self)
    }

    /// A database failure as an answer: `503` when trying again may work, `500` otherwise.
    static func answer(_ error: PGError) -> HTTPError {
        switch error.kind {
        case .unavailable: .unavailable("the database cannot answer now (\(error)); nothing was acknowledged: send the request again")
        case .seqTaken, .failed: HTTPError(500, "database", "\(error)")
        }
    }
}

/// The logs a store process has seen, one lock each (their caller is one
/// request at a time; requests for different learners run at once). At most
/// `capacity` are kept: beyond, idle ones are forgotten (read again when asked).
final class StoredLogs: @unchecked Sendable {
    private final class Entry: @unchecked Sendable {
        let lock = DispatchSemaphore(value: 1)
        /// Guarded by `lock`.
        var log: StoredLog?
        /// Guarded by the map's lock.
        var users = 0
    }

    private let capacity: Int
    private let lock = DispatchSemaphore(value: 1)
    /// By the learner id's bytes (its code points, never `String ==`).
    private var entries: [[UInt8]: Entry] = [:]

    init(capacity: Int) { self.capacity = max(1, capacity) }

    func with<T>(_ learner: [UInt8], name: String, _ body: (StoredLog) throws(HTTPError) -> T) throws(HTTPError) -> T {
        lock.wait()
        let entry = entries[learner] ?? Entry()
        entries[learner] = entry
        entry.users += 1
        lock.signal()
        defer {
            lock.wait()
            entry.users -= 1
            if entries.count > capacity {
                for (key, old) in entries where old.users == 0 && entries.count > capacity * 3 / 4 { entries[key] = nil }
            }
            lock.signal()
        }
        entry.lock.wait()
        defer { entry.lock.signal() }
        let log = entry.log ?? StoredLog(name: name)
        entry.log = log
        return try body(log)
    }
}

/// Tells other processes on the database that a push committed
/// (`NOTIFY progress_ledger`, sent after the commit on a connection of its
/// own, so a push never waits on the notification queue's lock), and wakes
/// this process's waiters when another process's notification arrives.
final class Notifier: @unchecked Sendable {
    private let uri: String
    private let changes: ChangeSignal
    private let lock = DispatchSemaphore(value: 1)
    private let pending = DispatchSemaphore(value: 0)
    /// Guarded by `lock`: a notification is due.
    private var due = false
    /// The least time between two notifications this process sends (what a
    /// `wait=` on another server may wait past the commit, at most).
    static let spacingMilliseconds = 5

    init(uri: String, changes: ChangeSignal) { self.uri = uri; self.changes = changes }

    func start() {
        _ = try? SystemThread.start { [self] in sendLoop() }
        _ = try? SystemThread.start { [self] in listenLoop() }
    }

    /// A push committed: notify (coalesced with others waiting to be sent).
    func poke() {
        lock.wait()
        let wasDue = due
        due = true
        lock.signal()
        if !wasDue { pending.signal() }
    }

    // The two loops are left unoptimized (`@_optimize(none)`; what they call is
    // optimized as usual): they wait on sockets, and on this endless loop with
    // libpq's calls inlined, Swift 6.3's loop-invariant code motion ran for
    // many CPU-minutes in a release build of the module (docs/scaling.md, "Speed").
    @_optimize(none)
    private func sendLoop() {
        var connection: PGConnection?
        while true {
            pending.wait()
            lock.wait()
            due = false
            lock.signal()
            do throws(PGError) {
                if connection == nil || connection?.isUsable == false { connection = try PGConnection(uri) }
                try connection?.run("SELECT pg_notify($1, '')", [.text(PostgresStore.channel)], prepared: true)
            } catch {
                connection = nil
            }
            // Pushes in the next few milliseconds share the next notification: each one is a
            // transaction of its own and wakes every listener, so not one per commit under load.
            _ = try? System().poll([], timeout: Self.spacingMilliseconds)
        }
    }

    @_optimize(none)
    private func listenLoop() {
        let system = System()
        while true {
            do throws(PGError) {
                let connection = try PGConnection(uri)
                try connection.runScript("LISTEN \(PostgresStore.channel)")
                changes.signal()   // anything missed while not listening
                while connection.isUsable {
                    _ = try? system.poll([PollEntry(fd: connection.socket, read: true, write: false)], timeout: 1000)
                    if try !connection.notifications().isEmpty { changes.signal() }
                }
            } catch {
                _ = try? system.poll([], timeout: 1000)   // the database is away: try again in a second
            }
        }
    }
}
#endif
