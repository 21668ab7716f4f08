import Events
import Ledger
import LedgerAnalytics
import Projections

/// How state, report, audit and demo read a log: every line checked as
/// `verify` checks it (a damaged log is refused with verify's message),
/// progress on a terminal, a torn tail and an unused snapshot reported as warnings.
enum LogInput {
    /// Calls `body` with each record of the log at `path` that `user` selects
    /// (every record when nil), in order, starting from `snapshot` when it
    /// matches (`LogReader.read`); returns what was read.
    ///
    /// Throws the ledger's error for a missing, unreadable or damaged log.
    static func read(_ path: String, _ io: Terminal, quiet: Bool, user: String? = nil, snapshot: String? = nil,
                     _ body: (consuming Record) -> Void) throws(LedgerError) -> LogRead {
        let meter = ProgressMeter(io, label: path, quiet: quiet)
        defer { meter.finish() }
        // No callback at all when nothing is drawn: the reader calls it once a line.
        let progress: ((Int, Int) -> Void)? = meter.enabled ? meter.update : nil
        let read = try LogReader(path: path).read(.init(user: user, snapshot: snapshot, progress: progress)) { record in
            body(record)
        }
        meter.finish()
        if let why = read.snapshotIgnored, let snapshot { io.error("snapshot ignored: \(snapshot): \(why)") }
        for warning in read.summary.warnings { io.error("\(path): warning: \(warning)") }   // as verify prints it
        return read
    }

    /// The note `state` and `explain` print on stderr when the learner has no
    /// kept event (exit 0: a brand-new learner's state is an answer, and a
    /// mistyped id shows why it is empty): the log holds no events at all, or
    /// none of `options.user` (as of `--as-of`).
    static func noteIfEmpty(_ command: String, _ summary: LogSummary, kept: Int, _ options: StateOptions, in path: String,
                            what: String = "the state", _ io: Terminal) {
        if summary.events + summary.newerVersionLines == 0 {
            io.error("progress-ledger \(command): \(path) holds no events; \(what) below is empty")
        } else if kept == 0 {
            noEvents(command, user: options.user, in: path, why: options.asOf.map { " as of \($0)" } ?? "", what: what, io)
        }
    }

    /// `progress-ledger state: no events for user "U" in PATH; the state below is empty`.
    static func noEvents(_ command: String, user: String, in path: String, why: String, what: String = "the state", _ io: Terminal) {
        io.error("progress-ledger \(command): no events for user \"\(user.prefixForMessage)\" in \(path)\(why); \(what) below is empty")
    }

    /// `6392 events, head 6392:9f2c…` (and the newer-version lines, if any), in verify's words.
    static func describe(_ summary: LogSummary) -> String {
        var text = "\(summary.events) event\(summary.events == 1 ? "" : "s")"
        if summary.newerVersionLines > 0 {
            text += " (\(summary.newerVersionLines) of a newer format version, kept unread)"
        }
        if summary.redactedLines > 0 { text += ", \(summary.redactedLines) redacted (erased; their hashes kept)" }
        return text + ", head \(summary.head)"
    }
}

extension LogInput {
    /// The ledger directory at `path`, or nil when `path` is not one (a LOG).
    static func directory(_ path: String) throws(CLIError) -> LedgerDirectory? {
        guard LedgerDirectory.isDirectory(path) else { return nil }
        do { return try LedgerDirectory(opening: path) } catch { throw .failure(error.description) }
    }

    /// Runs `read` over `paths` (a ledger directory, or logs: `LedgerSource(paths:)`)
    /// with progress on a terminal, unless `quiet`, and its warnings on stderr.
    static func reading<T>(_ paths: [String], _ io: Terminal, quiet: Bool,
                           _ read: (LedgerSource, ReadProgress?, (ReadWarning) -> Void) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let source = try LedgerSource(paths: paths)
        let meter = ProgressMeter(io, label: "", quiet: quiet)
        defer { meter.finish() }
        // No progress when the meter draws nothing (`--quiet`, stderr not a
        // terminal): the readers call it once a line.
        let progress: ReadProgress? = meter.enabled ? meter.update : nil
        return try read(source, progress) { warning in
            meter.finish()
            if case .conflictingID = warning { io.error("progress-ledger report: \(warning)") } else { io.error("\(warning)") }
        }
    }

    /// Reads every record (of `user` only, when given) of LOG, or of every
    /// learner log of a ledger directory in name order (only `user`'s, which
    /// must exist): `LedgerSource.forEachRecord`, for the commands that fold every learner.
    static func readEvery(_ path: String, _ io: Terminal, quiet: Bool, user: String? = nil,
                          _ body: (consuming Record) throws(LedgerError) -> Void) throws(LedgerError) {
        try reading([path], io, quiet: quiet) { (source, progress, warning) throws(LedgerError) in
            try source.forEachRecord(user: user, progress: progress, warning: warning, body)
        }
    }

    /// The learner log of `user` that must exist: LOG itself, or that learner's
    /// log in a ledger directory (an error naming the directory when it has none).
    static func existingLearnerLog(_ path: String, user: String) throws(LedgerError) -> String {
        try LedgerSource(paths: [path]).logs(user: user).first ?? path
    }

    /// What a command that reads one learner reads: LOG itself, or in a ledger
    /// directory the learner log of `user`, and whether that file exists.
    static func learnerLog(_ path: String, user: String) throws(CLIError) -> (path: String, exists: Bool) {
        guard let directory = try directory(path) else { return (path, true) }
        let log = directory.learnerPath(user: user)
        return (log, LedgerDirectory.isFile(log))
    }
}
