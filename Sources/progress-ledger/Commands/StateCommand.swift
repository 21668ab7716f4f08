import Events
import Ledger
import Projections

/// `progress-ledger state`: one learner's state on a day, rebuilt from the log.
///
/// Parses the options, reads the intact log through the Ledger's validated
/// reader into a `LearnerProjector`, and prints the `LearnerState` as JSON or
/// text. Every rule lives in Projections.
enum StateCommand: Command {
    static let name = "state"
    static let summary = "one learner's state on a day (daily quiz, streak, study plan...)"
    static let help = """
        LOG|REPLICA --user U [--outbox OUTBOX] [--day YYYY-MM-DD] [--as-of SEQ|TIME] [--catalog FILE]
                             [--retry-limit N] [--streak-on daily|any] [--days N] [--json]
                             [--snapshot FILE] [--quiet] [--format text|json|html] [--out FILE]

        Rebuilds everything the app shows for learner U from the log (of a ledger
        directory DIR given as LOG: only U's learner log is read): today's daily
        quiz and where to resume it, the streak, the history of completed daily
        quizzes, per-quiz, per-puzzle and per-lesson summaries, the study plan, the
        hint balance, stats, achievements and anomalies. The same log and options
        print the same bytes on any machine and in any time zone.

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

        Options:
          --user U          the learner (exact match, case-sensitive); required
          --day D           day D (YYYY-MM-DD); default: the day of U's latest event
          --as-of X         keep events with seq <= X (all digits) or at <= X (RFC 3339)
          --catalog FILE    JSON object mapping a skill to content ids, for recommendations
          --retry-limit N   daily-quiz retries allowed (default 1)
          --streak-on M     daily (default): finished daily quizzes; any: also other
                            quizzes, completed puzzles and submissions
          --days N          history window in days ending at D (default 30)
          --json            print the spec's JSON instead of text
          --format F        text (default), json (as --json) or html: the learner's own
                            dashboard, one self-contained page (charts as inline SVG,
                            no script, nothing loaded from outside)
          --out FILE        write the output to FILE (whole, mode 0600) instead of stdout
          --snapshot FILE   read only what was appended since the lines saved in
                            FILE, if it still matches; then save U's lines there
          --quiet           no progress on stderr while reading a large log
          --outbox OUTBOX   LOG is a device's replica: fold it, then the events of
                            OUTBOX not in it (the state a device shows offline;
                            docs/sync.md)

        Examples:
          progress-ledger state learner.log --user u-42
          progress-ledger state learner.log --user u-42 --day 2025-10-21 --json
          progress-ledger state learner.log --user u-42 --as-of 2025-10-21T12:00:00+03:00
          progress-ledger state learner.log --user u-42 --snapshot u-42.snapshot
          progress-ledger state learner.log --user u-42 --format html --out u-42.html
        """
    static let options: [OptionSpec] = [
        .value("--user"), .value("--day"), .value("--as-of"), .value("--catalog"), .value("--retry-limit"),
        .value("--streak-on"), .value("--days"), .flag("--json"), .value("--snapshot"), .flag("--quiet"),
        .value("--format"), .value("--out"), .value("--outbox"),
    ]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let given = try args.onePositional("LOG")
        let options = try stateOptions(args)
        // A ledger directory: only the learner's own log is read.
        let (path, exists) = try LogInput.learnerLog(given, user: options.user)
        let quiet = args.flag("--quiet")
        let format = try args.choice("--format", ["text", "json", "html"], default: args.flag("--json") ? "json" : "text")
        if args.flag("--json"), format != "json" { throw CLIError.usage("--json and --format \(format) disagree") }
        let snapshotPath = args.value("--snapshot")
        if let snapshotPath {
            guard !snapshotPath.isEmpty else { throw CLIError.usage("--snapshot takes a file name") }
            guard snapshotPath != path else { throw CLIError.usage("--snapshot names the log itself; give the snapshot its own file") }
        }
        var projector = LearnerProjector(options: options)
        if let outbox = args.value("--outbox") {
            guard snapshotPath == nil else { throw CLIError.usage("--snapshot and --outbox do not go together") }
            do {
                for record in try Outbox(path: outbox).deviceRecords(replica: path) { projector.apply(record) }
            } catch {
                throw CLIError.failure(error.description)
            }
            try write(projector, format, args, io)
            return ExitCode.ok
        }
        guard exists else {
            io.error("progress-ledger state: no events for user \(quoted(options.user)) in \(given) (no learner log); the state below is empty")
            try write(projector, format, args, io)
            return ExitCode.ok
        }
        let read: LogRead
        do {
            read = try LogInput.read(path, io, quiet: quiet, user: options.user, snapshot: snapshotPath) { record in
                projector.apply(record)
            }
        } catch {
            throw CLIError.failure(error.description)
        }
        if read.summary.events + read.summary.newerVersionLines == 0 {
            io.error("progress-ledger state: \(path) holds no events; the state below is empty")
        } else if projector.keptCount == 0 {
            let asOf = options.asOf.map { " as of \($0)" } ?? ""
            io.error("progress-ledger state: no events for user \(quoted(options.user)) in \(path)\(asOf); the state below is empty")
        }
        try write(projector, format, args, io)
        io.flush()   // the state first: whoever reads it need not wait for the snapshot
        do { try read.saveSnapshot() } catch {
            io.error("progress-ledger state: warning: the snapshot was not saved: \(error)")
        }
        return ExitCode.ok
    }

    /// Prints the state in `format` (json, html: the learner's dashboard, text) to stdout or `--out`.
    private static func write(_ projector: LearnerProjector, _ format: String, _ args: ParsedArguments,
                              _ io: Terminal) throws {
        let bytes: [UInt8]
        switch format {
        case "json": bytes = projector.state().jsonBytes + [0x0A]
        case "html": bytes = Array(LearnerDashboard(projector).html.utf8)
        default: bytes = Array(projector.state().text.utf8)
        }
        try OutputFile.write(bytes, to: args.value("--out"), io)
    }

    /// The options, checked; usage errors name the option.
    static func stateOptions(_ args: ParsedArguments) throws(CLIError) -> StateOptions {
        guard let user = args.value("--user") else { throw .usage("missing --user U") }
        guard !user.isEmpty else { throw .usage("--user takes a non-empty learner id") }
        var options = StateOptions(user: user)
        if let text = args.value("--day") {
            guard let day = Day(text) else { throw .usage("--day takes a date YYYY-MM-DD that exists (got '\(text)')") }
            options.day = day
        }
        if let text = args.value("--as-of") {
            do { options.asOf = try AsOf(parsing: text) } catch { throw .usage(error.description) }
        }
        options.retryLimit = try args.integer("--retry-limit", default: 1, range: 0...1_000_000)
        options.days = try args.integer("--days", default: 30, range: 1...1_000_000)
        let mode = try args.choice("--streak-on", StreakMode.allCases.map(\.rawValue), default: StreakMode.daily.rawValue)
        options.streakOn = StreakMode(rawValue: mode) ?? .daily
        if let file = args.value("--catalog") {
            let bytes = try readFile(file, what: "catalog")
            do { options.catalog = try Catalog(json: bytes) } catch {
                throw .failure("\(file): \(error)")
            }
        }
        return options
    }

    /// The whole content of a small file (the catalog).
    private static func readFile(_ path: String, what: String) throws(CLIError) -> [UInt8] {
        do { return try SmallFile.read(path) } catch {
            throw .failure("\(error.path): cannot read the \(what): \(error.message)")
        }
    }

    private static func quoted(_ s: String) -> String { "\"" + s + "\"" }
}
