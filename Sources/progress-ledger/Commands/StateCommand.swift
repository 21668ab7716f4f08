import Events
import Ledger
import Projections
import Rendering

/// `progress-ledger state`: one learner's state on a day, rebuilt from the log.
///
/// Parses the options, reads the intact log through the Ledger's validated
/// reader into a `LearnerProjector`, and prints the `LearnerState` as JSON or
/// text. Every rule lives in Projections.
enum StateCommand: Command {
    static let name = "state"
    static let summary = "one learner's state on a day (daily quiz, streak, study plan...)"
    static let help = """
        Rebuilds everything the app shows for learner U from the log (of a ledger
        directory DIR given as LOG: only U's learner log is read): today's daily
        quiz and where to resume it, the streak, the history of completed daily
        quizzes, per-quiz, per-puzzle and per-lesson summaries, the study plan, the
        hint balance, stats, achievements, anomalies, and the questions to review
        and when (FSRS-6 from U's own answers: see 'review'). The same log and
        options print the same bytes on any machine and in any time zone.

        A damaged log is refused with verify's message (exit 1); a torn tail is a
        warning. An empty log or a user without events prints a note on stderr and
        the empty state (exit 0).

        With --snapshot FILE, U's own lines are kept in FILE with the line the log
        was read up to. The next run checks that the log is the same file and still
        holds that line unchanged, folds U's saved lines again, then reads only the
        lines added since (each one checked as a full read checks it). A snapshot
        that does not match (another log, a log truncated or edited at its line,
        another --user, a damaged, older or newer file) is ignored with one line on stderr,
        'snapshot ignored: FILE: why', and the whole log is read. FILE is then
        written (atomically, mode 0600). The output is the same either way.
        Lines before the saved one are not read again: run 'verify' to prove
        the whole file (docs/operations.md, "Snapshots").
        """
    static let output = OutputOptions<StateFormat>(help: "text, json (the state as docs/projections.md gives it) or html: "
        + "the learner's own dashboard, one self-contained page (charts as inline SVG, no script, nothing loaded from outside)",
                                                  default: .text)
    static let snapshot = Option.nonEmpty("--snapshot", value: "FILE", help: "read only what was appended since the lines saved in FILE, "
        + "if it still matches; then save U's lines there", what: "a file name").conflicting(with: outbox)
    static let outbox = Option("--outbox", value: "OUTBOX", help: "LOG is a device's replica: fold it, then the events of OUTBOX not in it "
        + "(the state a device shows offline; docs/sync.md)")
    static let options: [any OptionSpec] = [Common.user] + FoldOptions.all + output.options + [snapshot, Common.quiet, outbox]
    static let usage = [Form("LOG|DIR|REPLICA", options: options)]
    static let examples = """
        progress-ledger state learner.log --user u-42
        progress-ledger state learner.log --user u-42 --day 2025-10-21 --json
        progress-ledger state learner.log --user u-42 --as-of 2025-10-21T12:00:00+03:00
        progress-ledger state learner.log --user u-42 --snapshot u-42.snapshot
        progress-ledger state learner.log --user u-42 --format html --out u-42.html
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let given = try args.onePositional("LOG")
        let (options, path, exists) = try FoldOptions.learnerLog(given, args)
        let format = try output.resolve(args)
        let snapshotPath = args[Self.snapshot]
        if snapshotPath == path { throw CLIError.usage("--snapshot names the log itself; give the snapshot its own file") }
        var projector = LearnerProjector(options: options)
        if let outbox = args[Self.outbox] {
            do {
                for record in try Outbox(path: outbox).deviceRecords(replica: path) { projector.apply(record) }
            } catch {
                throw CLIError.failure(error.description)
            }
            try write(projector, format, args, io)
            return ExitCode.ok
        }
        guard let read = try fold(into: &projector, given, path, exists: exists, io, quiet: args[Common.quiet],
                                  snapshot: snapshotPath, command: name, what: "the state") else {
            try write(projector, format, args, io)
            return ExitCode.ok
        }
        try write(projector, format, args, io)
        io.flush()   // the state first: whoever reads it need not wait for the snapshot
        do { try read.saveSnapshot() } catch {
            io.error("progress-ledger state: warning: the snapshot was not saved: \(error)")
        }
        return ExitCode.ok
    }

    /// Folds learner U's log at `path` (LOG, or U's log in the ledger
    /// directory `given`) into `projector`, saying on stderr when U has no
    /// events (`what` below is empty). Nil when there is no learner log to read.
    static func fold(into projector: inout LearnerProjector, _ given: String, _ path: String, exists: Bool, _ io: Terminal,
                     quiet: Bool, snapshot: String? = nil, command: String, what: String) throws(CLIError) -> LogRead? {
        let options = projector.options
        guard exists else {
            LogInput.noEvents(command, user: options.user, in: given, why: " (no learner log)", what: what, io)
            return nil
        }
        let read: LogRead
        do {
            read = try LogInput.read(path, io, quiet: quiet, user: options.user, snapshot: snapshot) { record in
                projector.apply(record)
            }
        } catch {
            // A file of input events given as the log: say so after verify's message.
            throw CLIError.failure(error.description + (InputFileHint.note(for: error).map { "\nprogress-ledger \(command): " + $0 } ?? ""))
        }
        LogInput.noteIfEmpty(command, read.summary, kept: projector.keptCount, options, in: path, what: what, io)
        return read
    }

    /// Prints the state in `format` (json, html: the learner's dashboard, text) to stdout or `--out`.
    private static func write(_ projector: LearnerProjector, _ format: StateFormat, _ args: ParsedArguments,
                              _ io: Terminal) throws {
        let bytes: [UInt8]
        switch format {
        case .json: bytes = projector.state().jsonBytes + [0x0A]
        case .html: bytes = Array(LearnerDashboard(projector).html.utf8)
        case .text: bytes = Array(projector.state().text.utf8)
        }
        try OutputFile.write(bytes, to: args[output.out], io)
    }
}

/// What `state` prints: text, the spec's JSON, or the learner's HTML dashboard.
enum StateFormat: String, OutputFormat { case text, json, html }
