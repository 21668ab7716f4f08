import Ledger

/// `export --format jsonl`: the raw lines, byte for byte.
extension ExportCommand {
    static func runRaw(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG")
        let after = try args.integer("--after", default: 0, range: 0...Int.max)
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
