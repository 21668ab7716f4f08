import Events
import Ledger
import Projections

extension LedgerSource {
    /// Calls `body` with every record: the logs in order, or a directory's
    /// learner logs in name order, each in log order and checked whole as
    /// `verify` checks it (`LogReader.read`). With `user`, only that
    /// learner's records (in a directory, only their learner log, which must
    /// exist).
    ///
    /// `warning` gets each log's torn tail once that log is read; `progress`
    /// is called as each log is read. Throws the first error: a log missing,
    /// unreadable or damaged (`verify`'s message, `PATH: line K: KIND: detail`),
    /// or `body`'s, which stops the read.
    public func forEachRecord(user: String? = nil, progress: ReadProgress? = nil, warning: (ReadWarning) -> Void = { _ in },
                              _ body: (consuming Record) throws(LedgerError) -> Void) throws(LedgerError) {
        try Self.read(try logs(user: user), user: user, progress: progress, warning: warning) { (_, record) throws(LedgerError) in
            try body(record)
        }
    }

    /// Reads `logs` in turn, calling `body` with each one's path and records.
    /// `forFold`: records for a fold of every learner (`LogReader.Options.forFold`).
    static func read(_ logs: [String], user: String?, forFold: Bool = false, progress: ReadProgress?, warning: (ReadWarning) -> Void,
                     _ body: (String, consuming Record) throws(LedgerError) -> Void) throws(LedgerError) {
        for log in logs {
            var options = LogReader.Options(user: user, progress: progress.map { progress in { progress(log, $0, $1) } })
            options.forFold = forFold
            let read = try LogReader(path: log).read(options) { (record) throws(LedgerError) in try body(log, record) }
            if let tail = read.summary.tornTail { warning(.tornTail(path: log, tail)) }
        }
    }

    /// `export --format flat`: every log checked first (nothing is written
    /// when one is damaged), then each event (of `user` only, when given: in
    /// a directory, only their learner log, which must exist) as a flat row
    /// into the partitions at `folder` (`PartitionedOutput`, written whole).
    /// Returns how many lines of a newer format version were not exported.
    package func exportFlat(to folder: String, user: String? = nil, progress: ReadProgress?,
                            warning: (ReadWarning) -> Void) throws(LedgerError) -> Int {
        let logs = try logs(user: user)
        for log in logs {
            if let problem = try verify(path: log).problem {
                throw LedgerError(.damaged, path: log, problem.description, cause: .problem(problem))
            }
        }
        let output = try PartitionedOutput(path: folder)
        var export = FlatExport()
        var newer = 0
        try Self.read(logs, user: user, progress: progress, warning: warning) { (_, record) throws(LedgerError) in
            guard let (day, line) = export.row(record) else { newer += 1; return }
            try output.add(day: day.description, line: line)
        }
        try output.finish()
        return newer
    }
}
