import Ledger

/// `export --format jsonl`: the raw lines, byte for byte.
extension ExportCommand {
    static func runRaw(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG")
        let after = args[Self.after] ?? 0
        do {
            try LogReader(path: path).rawLines(after: after) { line in
                io.write(bytes: Array(line) + [0x0A])
            }
        } catch {
            throw CLIError.failure(error.description)
        }
        return ExitCode.ok
    }
}
