import Events
import Ledger
import Projections

extension LedgerSource {
    /// The report of the days `from` ... `to` (the spec's `report`; nil: the
    /// first and last day with an event) over every event of the source.
    ///
    /// Several logs are read in turn, their events counted as one sequence; an
    /// event whose id was read from an earlier log counts once, where first
    /// read, and with different content it is a ``ReadWarning/conflictingID(id:place:earlier:)``.
    /// A directory's learner logs are folded in parallel on all cores
    /// (`LedgerDirectory.workers`) into the report, byte for byte, of the
    /// single log they were split from; `progress` is not called for them.
    ///
    /// `warning` gets each torn tail, of a log or a learner log, with the same
    /// words: a log's once it is read, a directory's in name order once all are.
    /// Throws the first damaged log's error with `verify`'s message
    /// (`PATH: line K: KIND: detail`; in a directory, `misrouted` for an event
    /// of another learner), or a log's that cannot be read.
    public func report(from: Day? = nil, to: Day? = nil, progress: ReadProgress? = nil,
                       warning: (ReadWarning) -> Void = { _ in }) throws(LedgerError) -> Report {
        switch self {
        case .directory:
            // Each worker reads a learner log on its own thread and folds it as one
            // learner, then keeps only what the report needs of them.
            return try fold({ ReportBuilder(from: from, to: to) }, progress: nil, warning: warning).report()
        case .logs(let logs):
            if logs.count == 1 {
                // One log: its fold events, read from the lines' captures (no
                // string made), folded on a thread of the reader's own, a
                // checked chunk's views at a time where they lie, while the
                // calling thread reads and runs the chain (docs/performance.md,
                // "the report's critical path, ninth pass").
                let log = logs[0]
                var builder = ReportBuilder(from: from, to: to)
                let read = try LogReader(path: log).readFoldEvents(progress: progress.map { progress in { progress(log, $0, $1) } }) { builder.add($0) }
                if let tail = read.summary.tornTail { warning(.tornTail(path: log, tail)) }
                return builder.report()
            }
            // The fold runs beside the reader's ordered thread, in log order.
            let fold = ReportFold(from: from, to: to)
            // Several logs: an event read twice is found by its id and content, so records are made whole.
            try Self.read(logs, user: nil, progress: progress, warning: warning) { (log, record) throws(LedgerError) in
                let (id, place) = (record.id, "\(log):\(record.seq)")
                if case .conflicting(let earlier) = fold.add(record, readAt: place) {
                    warning(.conflictingID(id: id, place: place, earlier: earlier))
                }
            }
            return fold.report()
        }
    }
}
