#if canImport(CLibpq)
import Dispatch
import Ledger

/// Small pushes of several learners stored together: one `INSERT`, so one
/// transaction and one commit, for every push waiting when a committer is
/// free (the PostgreSQL store's group commit). A push's caller waits until
/// its group's statement has committed with the server's
/// `synchronous_commit`, so acknowledged still means committed; each push is
/// still sealed alone by its learner's ``StoredLog`` (the writer's rules do
/// not move).
///
/// - No two lines of one group share a seq, so a transaction's lines keep
///   one order by `(tx, seq)` with no ties: the change feed's cursor
///   (``FeedCursor``) is unchanged. A push whose seqs clash with the group's
///   waits for the next group.
/// - A group's statement that fails on a connection still open (another
///   server took a seq first, `23505`; a deadlock between two servers'
///   groups; anything else) rolled back whole: each of its pushes is then
///   stored alone, as an ungrouped push is, and gets its own answer.
/// - A connection lost during the statement may have committed it or not:
///   every push of the group gets the error (`503`, sent again by the
///   device; its ids make that safe), never a `200`.
final class GroupCommit: @unchecked Sendable {
    /// One push's lines, waiting for its group's commit.
    final class Push: @unchecked Sendable {
        let learner: [UInt8]
        let lines: [(seq: Int, bytes: ArraySlice<UInt8>)]
        /// Set by the committer before `done` is signalled.
        var outcome: Result<Void, PGError>?
        let done = DispatchSemaphore(value: 0)

        init(learner: [UInt8], lines: [(seq: Int, bytes: ArraySlice<UInt8>)]) { self.learner = learner; self.lines = lines }
    }

    /// The most lines a push may have to be grouped (larger ones are stored alone).
    static let maxPushLines = 4
    /// The most bytes of lines a push may have to be grouped.
    static let maxPushBytes = 64 << 10
    /// The most lines of one group.
    static let maxGroupLines = 64

    /// One statement for any group: the rows as three parallel arrays.
    static let statement = "INSERT INTO progress_ledger_lines (learner, seq, line) SELECT * FROM unnest($1::bytea[], $2::int8[], $3::bytea[])"

    private let pool: PGPool
    private let lock = DispatchSemaphore(value: 1)
    /// Signalled once per push queued; a committer wakes and takes a group.
    private let ready = DispatchSemaphore(value: 0)
    /// Guarded by `lock`: the pushes waiting for a group, oldest first.
    private var queue: [Push] = []

    /// Starts `committers` threads, each storing one group at a time on a
    /// connection of `pool` (so groups of different committers commit at
    /// once, and PostgreSQL's own group commit shares their WAL flushes).
    init(pool: PGPool, committers: Int) throws(PGError) {
        self.pool = pool
        for k in 0..<max(1, committers) {
            do { _ = try SystemThread.start { [self] in commitLoop() } } catch {
                throw PGError(.failed, "cannot start committer thread \(k + 1) of \(committers): \(error)")
            }
        }
    }

    /// Whether a push of these lines is stored through a group.
    static func takes(_ lines: [(seq: Int, bytes: ArraySlice<UInt8>)]) -> Bool {
        lines.count <= maxPushLines && lines.reduce(0) { $0 + $1.bytes.count } <= maxPushBytes
    }

    /// Stores `lines` of `learner` in the next group that takes them; returns
    /// once that group committed, or throws what storing them met.
    func store(learner: [UInt8], lines: [(seq: Int, bytes: ArraySlice<UInt8>)]) throws(PGError) {
        let push = Push(learner: learner, lines: lines)
        lock.wait()
        queue.append(push)
        lock.signal()
        ready.signal()
        push.done.wait()
        switch push.outcome {
        case .success?: return
        case .failure(let error)?: throw error
        case nil: throw PGError(.failed, "a grouped push was answered without an outcome")
        }
    }

    // Left unoptimized for the reason `Notifier`'s loops are (an endless
    // loop; Swift 6.3's loop-invariant code motion, docs/scaling.md).
    @_optimize(none)
    private func commitLoop() {
        while true {
            ready.wait()
            let group = take()
            if !group.isEmpty { commit(group) }
        }
    }

    /// The oldest waiting pushes whose seqs do not clash, up to `maxGroupLines` lines.
    private func take() -> [Push] {
        lock.wait()
        defer { lock.signal() }
        var group: [Push] = []
        var rest: [Push] = []
        var seqs = Set<Int>()
        var lines = 0
        for push in queue {
            if lines + push.lines.count <= Self.maxGroupLines, push.lines.allSatisfy({ !seqs.contains($0.seq) }) {
                group.append(push)
                lines += push.lines.count
                for line in push.lines { seqs.insert(line.seq) }
            } else {
                rest.append(push)
            }
        }
        queue = rest
        return group
    }

    /// Stores `group` and answers each of its pushes.
    private func commit(_ group: [Push]) {
        var outcomes: [Result<Void, PGError>] = []
        do throws(PGError) {
            try pool.with { (c) throws(PGError) in
                let rows = group.flatMap { push in push.lines.map { (push.learner, $0.seq, $0.bytes) } }
                do throws(PGError) {
                    try c.run(Self.statement, [.byteaArray(rows.map(\.0)), .int8Array(rows.map(\.1)), .byteaArray(rows.map(\.2))],
                              prepared: true)
                    outcomes = group.map { _ in .success(()) }
                } catch {
                    // Lost mid-statement: committed or not, nobody knows; every push gets the error.
                    guard c.isUsable, group.count > 1 else { throw error }
                    // Rolled back whole: each push alone, with its own answer.
                    outcomes = group.map { push in
                        Result { () throws(PGError) in try PostgresStore.insert(c, push.learner, push.lines) }
                    }
                    // A connection that answered "try again later" (read-only after a failover,
                    // shutting down) is dropped by the pool, as for an ungrouped push.
                    for case .failure(let e) in outcomes where e.kind == .unavailable { throw e }
                }
            }
        } catch {
            if outcomes.count != group.count { outcomes = group.map { _ in .failure(error) } }
        }
        for (push, outcome) in zip(group, outcomes) {
            push.outcome = outcome
            push.done.signal()
        }
    }
}
#endif
