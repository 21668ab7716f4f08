import Events
import Ledger

/// `progress-ledger export LOG [--user U [--state]]`: option parsing and the
/// dispatch to one file per mode (`ExportCommand+User.swift`...).
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "print a log's raw lines (a learner's own with --user, for a data request)"
    static let help = """
        LOG [--format jsonl] --user U [--state]

        With --user U: the lines of learner U, byte for byte as in the log, one
        per line, after the whole log is verified (a damaged log is refused with
        verify's message and nothing is printed). This is what a learner is
        given when they ask for their data (docs/privacy.md). Lines erased by
        'erase' belong to no one and are not printed.

        Options:
          --format F   jsonl (the default): the raw log lines
          --user U     only the lines of learner U
          --state      after U's lines, one more line: {"state":{...}}, U's
                       current state as 'state --json' prints it
          -h, --help   show this help

        Examples:
          progress-ledger export progress.log --user u-42 --state > u-42.jsonl
        """
    static let options: [OptionSpec] = [.value("--format"), .value("--user"), .flag("--state")]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        _ = try args.choice("--format", ["jsonl"], default: "jsonl")
        if args.value("--user") != nil { return try runUser(args, io) }
        if args.flag("--state") { throw CLIError.usage("--state needs --user U: the state is one learner's") }
        throw CLIError.usage("--user U is required: the learner whose lines to print")
    }
}
