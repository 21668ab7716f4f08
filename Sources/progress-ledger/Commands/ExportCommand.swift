import Events
import Interop
import Ledger

/// `progress-ledger export`: a log's events in another form. This file only
/// parses the options and dispatches on `--format`; each format lives in its
/// own file (`ExportCommand+Flat.swift`, `ExportCommand+XAPI.swift`, ...) and
/// calls the library.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "a learner's raw lines (--user), or the log for another system (flat rows, xAPI, FSRS revlog)"
    static let help = """
        Writes the log's events, as they are or in another form, to stdout or
        to --out. Every option applies to the formats its help line names;
        given with another format, it is refused (exit 64), never ignored.

        --format jsonl: the log's lines with seq greater than SEQ
        (--after, default \(after.shown)), byte for byte, one per line, after the
        whole log is verified (a damaged log is refused with verify's message and
        nothing is printed). This is what a server sends a device on pull
        (docs/sync.md).

        --user U limits every format to learner U's events. With jsonl: U's
        lines, byte for byte as in the log, one per line, after the whole log is
        verified. This is what a learner is given when they ask for their data
        (docs/privacy.md). Lines erased by 'erase' belong to no one and are not
        written. With --state, one more line: {"state":{...}}, U's current state
        as 'state --json' prints it. With --receipts OUTDIR, a receipt of each
        line too (docs/receipts.md): OUTDIR/checkpoint, the log's checkpoint
        signed with KEYFILE as 'checkpoint' makes it (of the learner log in a
        DIR, of all of LOG's lines otherwise), and for each line
        OUTDIR/SEQ.jsonl (the line) and OUTDIR/SEQ.tlog-proof (its proof), which
        anyone checks with 'check-proof SEQ.tlog-proof --line SEQ.jsonl --vkey
        VKEYFILE'. OUTDIR must not exist or be empty; it is written whole.

        --format flat writes every event as one flat JSON object with the
        attempt rules applied (its learner's day, counted, score) into
        Hive-style partitions OUTDIR/day=YYYY-MM-DD/part-NNNNN.jsonl, for
        DuckDB, Spark or any engine (docs/analytics.md: the 35 columns, the
        bindings, sql/report.sql). OUTDIR must not exist or be empty; it is
        written whole (a sibling OUTDIR.tmp-PID renamed at the end).

        --format xapi: xAPI 1.0.3 statements, one JSON object per line,
        for a Learning Record Store (docs/xapi.md has the whole mapping). Every
        learner event maps to at most one statement: grants, resets and the events
        the spec ignores (a reused attempt id, an unknown attempt, an event after
        the attempt's end, a second answer) map to nothing. Statement ids are
        name-based UUIDs of the event's user and id, so exporting twice gives the
        same bytes and an LRS recognises a statement it already has.

        --out: jsonl, xapi and revlog write the file whole (a new file beside it,
        renamed over it, mode 0600; nothing is written when the log is
        damaged); a file that holds log lines is never replaced.

        --format revlog: every learner's reviews (docs/projections.md, "review")
        as the CSV the open-source FSRS optimizer reads, to fit FSRS parameters
        on your own learners (pass them back with 'state' or 'review'
        --fsrs-params): card_id,review_time,review_rating,review_state,
        review_duration. A card is one question of one learner (after a reset
        of its scope, a new card), its id a stable integer; review_time is epoch
        milliseconds, review_rating 1 (wrong), 2 (right after a hint) or 3
        (right), review_state 0 for a card's first review and 2 after, and
        review_duration the answer's ms (0 when not given). Cards by learner,
        kind, source and question; each card's reviews in time order.

        A ledger directory DIR: --user reads only U's learner log; flat, xapi and
        revlog without --user read every learner log (seqs are the learner logs').

        --store URI DIR: the learner logs a PostgreSQL store holds ('serve
        --store URI'; a libpq connection URI) written as the new ledger
        directory DIR, each line byte for byte as the servers stored it, read
        in one snapshot; 'verify DIR', 'report DIR' and the rest then read it.

        A damaged log is refused with verify's message (exit 1) and nothing is
        written; a torn tail is a warning. A learner without events is a note
        on stderr (exit 0).
        """
    static let output = OutputOptions<ExportFormat>(help: "jsonl (the log's lines), flat (rows in day partitions "
        + "for DuckDB or Spark), xapi (xAPI statements) or revlog (the FSRS optimizer's CSV)", default: .jsonl, out: out)
    static let user = Common.learner("only the events of learner U (exact match)")
    static let after = Option.integer("--after", value: "SEQ", help: "only the lines after SEQ", range: 0...Int.max)
        .defaulting(to: 0, shown: "0: all").conflicting(with: user).only(with: output.format, .jsonl)
    static let state = Flag("--state", help: "after U's lines, U's current state").needing(user).only(with: output.format, .jsonl)
    static let out = Option.nonEmpty("--out", value: "OUT", help: "flat: the folder of partitions (required); jsonl, xapi and revlog: "
        + "write to the file OUT instead of stdout, whole", what: "a file or folder name")
    static let homepage = Option("--homepage", value: "URL", help: "actor.account.homePage")
        .defaulting(to: XAPIOptions.defaultHomepage).only(with: output.format, .xapi)
    static let activityBase = Option("--activity-base", value: "IRI", help: "base of the activity, verb and extension IRIs")
        .defaulting(to: XAPIOptions.defaultActivityBase).only(with: output.format, .xapi)
    static let receipts = Option.nonEmpty("--receipts", value: "OUTDIR", help: "with --user: also a signed checkpoint and a proof "
                                          + "of each line, in the new folder OUTDIR", what: "a folder name")
        .needing(user).needing(Receipts.key).needing(Receipts.origin).only(with: output.format, .jsonl)
    static let store = Option.nonEmpty("--store", value: "URI", help: "write the PostgreSQL store at URI (a libpq connection URI) "
                                       + "as the new ledger directory DIR", what: "a connection URI (postgresql://...)")
        .conflicting(with: user).conflicting(with: after).conflicting(with: out).only(with: output.format, .jsonl)
    static let options: [any OptionSpec] = output.options + [user, after, state, homepage, activityBase, Common.quiet, store,
                                                            receipts, Receipts.key.needing(receipts), Receipts.origin.needing(receipts)]
    static let usage = [
        Form("LOG", [.optional([output.form(.jsonl)])] + Usage.of([after, out])),
        Form("LOG|DIR", [.optional([output.form(.jsonl)]), .option(user)] + Usage.of([state])
             + [.optional([.option(receipts), .option(Receipts.key), .option(Receipts.origin)])] + Usage.of([out])),
        Form("LOG|DIR", [output.form(.flat), .option(out)] + Usage.of([user, Common.quiet])),
        Form("LOG|DIR", [output.form(.xapi)] + Usage.of([user, homepage, activityBase, out, Common.quiet])),
        Form("LOG|DIR", [output.form(.revlog)] + Usage.of([user, out, Common.quiet])),
        Form("", [.option(store), .operand("DIR")]),
    ]
    static let examples = """
        progress-ledger export server.log --after 120 | progress-ledger pull replica.log
        progress-ledger export progress.log --user u-42 --state --out u-42.jsonl
        progress-ledger export ledger.d --user u-42 --receipts u-42-receipts --key school.key --origin school.example/progress/u-42 --out u-42.jsonl
        progress-ledger export learner.log --format flat --out flat/
        progress-ledger export --store postgresql://ledger@db.internal/ledger ledger.d
        progress-ledger export learner.log --format xapi --out statements.jsonl
        progress-ledger export ledger.d --format revlog --out revlog.csv
        progress-ledger export learner.log --format xapi --user u-42 \\
            --homepage https://school.example/ --activity-base https://school.example/xapi/
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let format = try output.resolve(args)
        if let uri = args[store] { return try runStore(uri, args, io) }
        switch format {
        case .xapi: return try runXAPI(try args.onePositional("LOG"), args, io)
        case .flat: return try runFlat(args, io)
        case .revlog: return try runRevlog(args, io)
        case .jsonl: return args[user] == nil ? try runRaw(args, io) : try runUser(args, io)
        }
    }

    /// The note a learner without events gets on stderr (exit 0: an empty answer is an answer).
    static func noEvents(_ user: String, in path: String, _ io: Terminal) {
        io.error("progress-ledger export: no events for user \"\(user.prefixForMessage)\" in \(path)")
    }
}

/// What `export` writes: the raw lines, flat rows in partitions, xAPI statements, or the FSRS optimizer's revlog.
enum ExportFormat: String, OutputFormat { case jsonl, flat, xapi, revlog }
