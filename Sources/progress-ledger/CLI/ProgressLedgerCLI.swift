import Events
import Ledger

/// The `progress-ledger` tool: finds the command, parses its options, runs it,
/// and turns errors into messages on stderr and exit codes.
enum ProgressLedgerCLI {
    /// Every command, in the order `--help` lists them.
    static let commands: [any Command.Type] = [
        DemoCommand.self,
        AppendCommand.self,
        VerifyCommand.self,
        StateCommand.self,
        ReviewCommand.self,
        AuditCommand.self,
        ReportCommand.self,
        SplitCommand.self,
        JoinCommand.self,
        ExportCommand.self,
        ImportCommand.self,
        ItemsCommand.self,
        LeaderboardCommand.self,
        EraseCommand.self,
        ExplainCommand.self,
        PullCommand.self,
        PendingCommand.self,
        MergeCommand.self,
        ServeCommand.self,
        KeygenCommand.self,
        CheckpointCommand.self,
        ProveCommand.self,
        CheckProofCommand.self,
    ]

    /// The longest command name, for the command list's column.
    static let nameWidth = commands.map { $0.name.count }.max() ?? 8

    /// The tool's version (`--version`).
    static let version = "1.2.0 (log format 2)"

    /// The environment variable that makes every read see logs as a reader of
    /// an older format version does (`1`: lines of version-2 types are kept,
    /// checked for seq, id and prev, and reported as newer_version). Appends
    /// are unaffected. For checking what an app not yet updated sees.
    static let readVersionVariable = "PROGRESS_LEDGER_READ_VERSION"

    static let overview = """
        progress-ledger: the learner's progress as an append-only event log.

        Usage: progress-ledger <command> [options]

        Commands:
        \(commands.map { "  " + $0.name.padding(nameWidth) + "  " + $0.summary }.joined(separator: "\n"))

        Run 'progress-ledger <command> --help' for a command's options,
        'progress-ledger --version' for the version.
        Commands that print data take --format (text by default), --json for
        --format json, and --out FILE; an option a form does not use is refused.
        Exit codes: 0 ok, 1 failure or invalid data, 64 usage error.
        """

    /// Runs the command line `argv` (the tool's name first) and returns the
    /// exit code; output that could not be written to stdout makes it 1.
    static func run(_ argv: [String]) -> Int32 {
        let io = Terminal()
        let code = run(argv, io)
        io.flush()
        guard let failure = io.outputFailure else { return code }
        let name = argv.dropFirst().first.flatMap { first in commands.first { $0.name == first }?.name }
        io.error("progress-ledger\(name.map { " " + $0 } ?? ""): the output could not be written to stdout: \(failure)")
        return ExitCode.failure
    }

    private static func run(_ argv: [String], _ io: Terminal) -> Int32 {
        if let read = System.environment(readVersionVariable), !FormatVersion.setReadable(read) {
            io.error("progress-ledger: \(readVersionVariable) must be a format version from 1 to \(FormatVersion.latest), not \"\(read)\"")
            return ExitCode.usage
        }
        let args = Array(argv.dropFirst())
        guard let first = args.first else {
            io.error(overview)
            return ExitCode.usage
        }
        if first == "--version" {
            io.line("progress-ledger \(version)")
            return ExitCode.ok
        }
        if first == "--help" || first == "-h" || first == "help" {
            io.line(args.dropFirst().first.flatMap { name in commands.first { $0.name == name } }.map(HelpText.of) ?? overview)
            return ExitCode.ok
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            if let near = Suggestion.closest(to: first, among: commands.map { $0.name } + ["--version", "--help"]) {
                io.error("progress-ledger: unknown command '\(first.prefixForMessage)'; did you mean '\(near)'?\n"
                         + "Run 'progress-ledger --help' for every command.")
            } else {
                io.error("progress-ledger: unknown command '\(first.prefixForMessage)'\n\n" + overview)
            }
            return ExitCode.usage
        }
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            io.line(HelpText.of(command))
            return ExitCode.ok
        }
        do {
            let parsed = try ParsedArguments(rest, options: command.options)
            return try command.run(parsed, io)
        } catch CLIError.usage(let message) {
            io.error("progress-ledger \(command.name): \(message)\nRun 'progress-ledger \(command.name) --help' for usage.")
            return ExitCode.usage
        } catch CLIError.failure(let message) {
            io.error("progress-ledger \(command.name): \(message)")
            return ExitCode.failure
        } catch let error as LedgerError {
            io.error("progress-ledger \(command.name): \(error)")
            if let note = InputFileHint.note(for: error) { io.error("progress-ledger \(command.name): \(note)") }
            return ExitCode.failure
        } catch {
            io.error("progress-ledger \(command.name): \(error)")
            return ExitCode.failure
        }
    }
}

extension String {
    /// The string padded with spaces on the right to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
