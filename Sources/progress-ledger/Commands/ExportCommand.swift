import Events
import Ledger

/// `progress-ledger export`: a log's events in another form. This file only
/// parses the options and dispatches on `--format`; each format lives in its
/// own file (`ExportCommand+Flat.swift`, `ExportCommand+XAPI.swift`, ...) and
/// calls the library.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "a learner's raw lines (--user), or the log for another system (flat rows, xAPI)"
    static let help = """
        LOG [--format jsonl] [--after SEQ]
                             LOG|DIR [--format jsonl] --user U [--state]
                             LOG|DIR --format flat --out OUTDIR [--quiet]
                             LOG|DIR --format xapi [--user U] [--homepage URL] [--activity-base IRI] [--quiet]

        Writes the log's events, as they are or in another form.

        --format jsonl (the default): the log's lines with seq greater than SEQ
        (--after, default 0: every line), byte for byte, one per line, after the
        whole log is verified (a damaged log is refused with verify's message and
        nothing is printed). This is what a server sends a device on pull
        (docs/sync.md).

        --format jsonl with --user U: the lines of learner U, byte
        for byte as in the log, one per line, after the whole log is verified (a
        damaged log is refused with verify's message and nothing is printed).
        This is what a learner is given when they ask for their data
        (docs/privacy.md). Lines erased by 'erase' belong to no one and are not
        printed. With --state, one more line: {"state":{...}}, U's current state
        as 'state --json' prints it.

        --format flat writes every event as one flat JSON object with the
        attempt rules applied (its learner's day, counted, score) into
        Hive-style partitions OUTDIR/day=YYYY-MM-DD/part-NNNNN.jsonl, for
        DuckDB, Spark or any engine (docs/analytics.md: the 35 columns, the
        bindings, sql/report.sql). OUTDIR must not exist or be empty; it is
        written whole (a sibling OUTDIR.tmp-PID renamed at the end).

        --format xapi: xAPI 1.0.3 statements on stdout, one JSON object per line,
        for a Learning Record Store (docs/xapi.md has the whole mapping). Every
        learner event maps to at most one statement: grants, resets and the events
        the spec ignores (a reused attempt id, an unknown attempt, an event after
        the attempt's end, a second answer) map to nothing. Statement ids are
        name-based UUIDs of the event's user and id, so exporting twice gives the
        same bytes and an LRS recognises a statement it already has.

        A ledger directory DIR: --user reads only U's learner log; flat and xapi
        without --user read every learner log (seqs are the learner logs').

        A damaged log is refused with verify's message (exit 1) and nothing is
        written; a torn tail is a warning.

        Options:
          --format F            jsonl (default), flat or xapi
          --after SEQ           jsonl: only the lines after SEQ (default 0: all)
          --user U              jsonl, xapi: only the events of learner U (exact match)
          --state               jsonl: after U's lines, U's current state
          --out OUTDIR          flat: the folder of partitions
          --homepage URL        xapi: actor.account.homePage (default https://progress-ledger.example/)
          --activity-base IRI   xapi: base of the activity, verb and extension IRIs
                                (default https://progress-ledger.example/activities/)
          --quiet               no progress on stderr while reading a large log

        Examples:
          progress-ledger export server.log --after 120 | progress-ledger pull replica.log
          progress-ledger export progress.log --user u-42 --state > u-42.jsonl
          progress-ledger export learner.log --format flat --out flat/
          progress-ledger export learner.log --format xapi > statements.jsonl
          progress-ledger export learner.log --format xapi --user u-42 \\
              --homepage https://school.example/ --activity-base https://school.example/xapi/
        """
    static let options: [OptionSpec] = [
        .value("--format"), .value("--after"), .value("--out"), .value("--user"), .flag("--state"), .value("--homepage"),
        .value("--activity-base"), .flag("--quiet"),
    ]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        switch try args.choice("--format", ["jsonl", "flat", "xapi"], default: "jsonl") {
        case "xapi": return try runXAPI(try args.onePositional("LOG"), args, io)
        case "flat": return try runFlat(args, io)
        default:
            if args.value("--user") != nil {
                guard args.value("--after") == nil else { throw CLIError.usage("--after and --user do not go together") }
                return try runUser(args, io)
            }
            if args.flag("--state") { throw CLIError.usage("--state needs --user U: the state is one learner's") }
            return try runRaw(args, io)
        }
    }
}
