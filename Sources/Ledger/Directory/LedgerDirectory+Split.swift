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
    /// Turns the log at `source` into a new ledger directory at `path`: the
    /// log is verified first (a damaged one is refused, nothing written), then
    /// each event is appended to its learner's log, each learner's events in
    /// their order in the source; `ledger.json`, written last, records the
    /// source's head. At most `batch` events are held in memory at a time.
    ///
    /// Lines of a newer format version cannot be re-sealed into a learner
    /// log: a source holding any is refused. On a failure part way (a full
    /// disk), the folder is left without `ledger.json`, so nothing takes it for a ledger.
    public static func split(log source: String, into path: String, batch: Int = 1 << 20) throws(LedgerError) -> DirectoryCopy {
        let checked = try LogReader(path: source).verify()
        if let problem = checked.problem { throw LedgerError(.damaged, path: source, problem.description) }
        if checked.summary.newerVersionLines > 0 {
            throw LedgerError(.unusable, path: source,
                              "holds \(checked.summary.newerVersionLines) line(s) of a newer format version, which a learner log cannot re-seal; not split")
        }
        try prepare(at: path)
        let directory = LedgerDirectory(path: path, sourceHead: nil)
        var pending: [String: [NewEvent]] = [:]
        var order: [String] = []
        var held = 0
        var logs = Set<String>()
        func flush() throws(LedgerError) {
            for user in order {
                let name = learnerName(user: user)
                try directory.makeFolder(forLearner: name)
                let writer = try LedgerWriter(path: directory.learnerPath(name: name))
                defer { writer.close() }
                _ = try writer.append(pending[user] ?? [], durability: .deferred)
                try writer.sync()
                logs.insert(name)
            }
            pending = [:]; order = []; held = 0
        }
        let read = try LogReader(path: source).read { (record) throws(LedgerError) in
            guard case .v1(let e) = record else { return }
            if pending[e.user] == nil { order.append(e.user) }
            pending[e.user, default: []].append(NewEvent(id: e.id, at: e.at, user: e.user, device: e.device, event: e.event))
            held += 1
            if held >= batch { try flush() }
        }
        try flush()
        _ = try finish(at: path, sourceHead: read.summary.head)
        return DirectoryCopy(logs: logs.count, events: read.summary.events, head: read.summary.head)
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
                guard case .v1(let e) = record else {
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
