import Dispatch
import Events

/// What `split` and `join` wrote.
public struct DirectoryCopy: Sendable {
    /// The learner logs (split) or 1 (join).
    public var logs: Int
    /// The events copied.
    public var events: Int
    /// The source's head (split) or the joined log's head (join).
    public var head: Head
}

extension LedgerDirectory {
    /// Turns the log at `source` into a new ledger directory at `path`: each
    /// event is appended to its learner's log, each learner's events in their
    /// order in the source; `ledger.json`, written last, records the source's
    /// head.
    ///
    /// Two passes, so that memory and the number of file opens do not grow
    /// with the number of learners:
    /// 1. the source is read and checked as `verify` does, and each event is
    ///    copied to one of 4,096 work files under `path/.split`, chosen by the
    ///    first three characters of its learner's `H64` (at most `buffer`
    ///    bytes are held before they are written out);
    /// 2. the work files are taken in parallel, one at a time per worker: a
    ///    file's events are grouped by learner (keeping their order) and each
    ///    learner's log is written at once, fsync'd and closed. The work file
    ///    is then removed.
    ///
    /// A damaged source, or one holding lines of a newer format version (they
    /// cannot be re-sealed into a learner log), is refused in the first pass,
    /// and what it wrote is removed: nothing is left at `path`. A failure in
    /// the second pass (a full disk) removes the work files and leaves the
    /// folder without `ledger.json`, so nothing takes it for a ledger. `progress` is called from the first
    /// pass with the bytes read and the source's size.
    public static func split(log source: String, into path: String, buffer: Int = 64 << 20,
                             progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil) throws(LedgerError) -> DirectoryCopy {
        try prepare(at: path)
        let system = System()
        var work = SplitWork(folder: "\(path)/\(SplitWork.folderName)", budget: buffer, system: system)
        let read: LogRead
        do {
            try work.create()
            read = try LogReader(path: source).read(.init(progress: progress)) { (record) throws(LedgerError) in
                guard case .event(let e) = record else {
                    throw LedgerError(.unusable, path: source,
                                      "line \(record.seq) is of a newer format version, which a learner log cannot re-seal; not split")
                }
                try work.add(e)
            }
            try work.flush()
        } catch {
            work.remove()
            _ = try? system.rmdir("\(path)/learners")
            _ = try? system.rmdir(path)
            throw error
        }
        let directory = LedgerDirectory(path: path, sourceHead: nil)
        let logs: Int
        do { logs = try work.writeLearnerLogs(into: directory) } catch {
            work.remove()   // the copies of the source's lines; the folder stays without ledger.json
            throw error
        }
        work.remove()
        _ = try finish(at: path, sourceHead: read.summary.head)
        return DirectoryCopy(logs: logs, events: read.summary.events, head: read.summary.head)
    }

    /// Writes every event of the directory to a new log at `out` (refused if
    /// it exists), in ``MergeOrder``: by instant, then id. The learner logs are
    /// read (and checked) in parallel; the events are held in memory, so this
    /// is for small deployments.
    public func join(into out: String) throws(LedgerError) -> DirectoryCopy {
        if (try? System().lstat(out)) != nil { throw LedgerError(.io, path: out, "already exists; give a new file name") }
        let logs = try learnerLogs()
        let parts = try Self.fold(logs, makePartial: { [Envelope]() }) { (events, log) throws(LedgerError) in
            try LogReader(path: log.path).read { (record) throws(LedgerError) in
                guard case .event(let e) = record else {
                    throw LedgerError(.unusable, path: log.path, "line \(record.seq): a line of a newer format version cannot be re-sealed; not joined")
                }
                events.append(e)
            }
        }
        // The parts in learner order, so equal keys keep a fixed order.
        let merged = MergeOrder.sorted(parts.flatMap { $0 })
        let writer = try LedgerWriter(path: out)
        defer { writer.close() }
        var start = 0
        while start < merged.count {
            let end = min(start + 65_536, merged.count)
            _ = try writer.append(merged[start..<end].map { NewEvent(id: $0.id, at: $0.at, user: $0.user, device: $0.device, event: $0.event) },
                                  durability: .deferred)
            start = end
        }
        try writer.sync()
        return DirectoryCopy(logs: 1, events: merged.count, head: writer.head)
    }
}
