import Events
import Ledger

/// How report, audit and demo read a log: every line checked as `verify`
/// checks it (a damaged log is refused with verify's message), progress on a
/// terminal, a torn tail reported as a warning.
enum LogInput {
    /// Calls `body` with each record of the log at `path`, in order; returns
    /// the log's summary (count, head, torn tail).
    ///
    /// Throws the ledger's error for a missing, unreadable or damaged log.
    ///
    /// With `user`, only that learner's records (and newer-version lines whose
    /// user cannot be read) reach `body`; every line is checked all the same.
    static func read(_ path: String, _ io: Terminal, quiet: Bool, user: String? = nil,
                     _ body: (Record) -> Void) throws(LedgerError) -> LogSummary {
        let meter = ProgressMeter(io, label: path, quiet: quiet)
        defer { meter.finish() }
        let reader = LogReader(path: path)
        let summary: LogSummary
        if let user {
            summary = try reader.forEachRecord(ofUser: user, progress: meter.update) { record in body(record) }
        } else {
            summary = try reader.forEachRecord(progress: meter.update) { record in body(record) }
        }
        meter.finish()
        for warning in summary.warnings { io.error("\(path): warning: \(warning)") }   // as verify prints it
        return summary
    }

    /// Like ``read(_:_:quiet:user:_:)`` without a user, but `body` owns each
    /// record (`LogReader.forEachOwnedRecord`): it can hand it to another
    /// thread without a copy, and the reading thread never releases it.
    static func readOwned(_ path: String, _ io: Terminal, quiet: Bool,
                          _ body: (consuming Record) -> Void) throws(LedgerError) -> LogSummary {
        let meter = ProgressMeter(io, label: path, quiet: quiet)
        defer { meter.finish() }
        let summary = try LogReader(path: path).forEachOwnedRecord(progress: meter.update) { record in body(record) }
        meter.finish()
        for warning in summary.warnings { io.error("\(path): warning: \(warning)") }   // as verify prints it
        return summary
    }

    /// Like ``read(_:_:quiet:user:_:)``, but reads only the lines after `checkpoint`
    /// when it still matches the log (`LogReader.forEachRecord(after:)`), and
    /// returns where the read stopped. A rejection is returned as it is (no
    /// warning printed): read again with a nil checkpoint.
    static func read(_ path: String, _ io: Terminal, quiet: Bool, after checkpoint: LogCheckpoint?,
                     _ body: (Record) -> Void) throws(LedgerError) -> Result<CheckpointedRead, SnapshotRejection> {
        let meter = ProgressMeter(io, label: path, quiet: quiet)
        defer { meter.finish() }
        let result = try LogReader(path: path).forEachRecord(after: checkpoint, progress: meter.update) { record in body(record) }
        meter.finish()
        if case .success(let read) = result {
            for warning in read.summary.warnings { io.error("\(path): warning: \(warning)") }   // as verify prints it
        }
        return result
    }

    /// `6392 events, head 6392:9f2c…` (and the newer-version lines, if any), in verify's words.
    static func describe(_ summary: LogSummary) -> String {
        var text = "\(summary.events) event\(summary.events == 1 ? "" : "s")"
        if summary.newerVersionLines > 0 {
            text += " (\(summary.newerVersionLines) of a newer format version, kept unread)"
        }
        return text + ", head \(summary.head)"
    }
}

extension ParsedArguments {
    /// A `YYYY-MM-DD` option, or nil when absent.
    func calendarDay(_ name: String) throws(CLIError) -> Day? {
        guard let text = value(name) else { return nil }
        guard let day = Day(text) else {
            throw .usage("\(name) takes a date YYYY-MM-DD that exists (got '\(text)')")
        }
        return day
    }

    /// `--from` and `--to`, checked to be in order.
    func dayRange() throws(CLIError) -> (from: Day?, to: Day?) {
        let from = try calendarDay("--from"), to = try calendarDay("--to")
        if let from, let to, to < from { throw .usage("--to \(to) is before --from \(from)") }
        return (from, to)
    }
}
