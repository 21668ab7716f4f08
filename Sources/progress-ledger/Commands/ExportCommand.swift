import Events
import Ledger

/// `progress-ledger export`: a log's events in another form. This file only
/// parses the options and dispatches on `--format`; each format lives in its
/// own file (`ExportCommand+XAPI.swift`, ...) and calls the library.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "the log's events in another form (xAPI statements)"
    static let help = """
        LOG --format xapi [--user U] [--homepage URL] [--activity-base IRI] [--quiet]

        Writes the log's events to stdout in another form.

        --format xapi: xAPI 1.0.3 statements, one JSON object per line, for a
        Learning Record Store (docs/xapi.md has the whole mapping). Every learner
        event maps to at most one statement: grants, resets and the events the
        spec ignores (a reused attempt id, an unknown attempt, an event after the
        attempt's end, a second answer) map to nothing. Statement ids are
        name-based UUIDs of the event's user and id, so exporting twice gives the
        same bytes and an LRS recognises a statement it already has.

        A damaged log is refused with verify's message (exit 1) and nothing is
        written; a torn tail is a warning.

        Options:
          --format F            xapi
          --user U              only the events of learner U (exact match)
          --homepage URL        actor.account.homePage (default https://progress-ledger.example/)
          --activity-base IRI   base of the activity, verb and extension IRIs
                                (default https://progress-ledger.example/activities/)
          --quiet               no progress on stderr while reading a large log

        Examples:
          progress-ledger export learner.log --format xapi > statements.jsonl
          progress-ledger export learner.log --format xapi --user u-42 \\
              --homepage https://school.example/ --activity-base https://school.example/xapi/
        """
    static let options: [OptionSpec] = [
        .value("--format"), .value("--user"), .value("--homepage"), .value("--activity-base"), .flag("--quiet"),
    ]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG")
        guard let format = args.value("--format") else { throw CLIError.usage("missing --format (xapi)") }
        switch format {
        case "xapi": return try runXAPI(path, args, io)
        default: throw CLIError.usage("--format takes xapi (got '\(format)')")
        }
    }
}
