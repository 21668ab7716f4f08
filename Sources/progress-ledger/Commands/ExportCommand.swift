import Events
import Ledger

/// `progress-ledger export LOG [--format jsonl] [--after SEQ]`: option parsing
/// and the dispatch to one file per format (`ExportCommand+Raw.swift`...).
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "print a log's raw lines after a seq (what a server sends on pull)"
    static let help = """
        LOG [--format jsonl] [--after SEQ]

        Prints the log's lines with seq greater than SEQ, byte for byte, one per line
        (--after 0, the default: every line). The whole log is verified first: a
        damaged log is refused with verify's message and nothing is printed. This is
        what a server sends a device on pull (docs/sync.md).

        Options:
          --format F    jsonl (the default): the raw log lines
          --after SEQ   only the lines after SEQ (default 0: all)

        Examples:
          progress-ledger export server.log --after 120 | progress-ledger pull replica.log
        """
    static let options: [OptionSpec] = [.value("--format"), .value("--after")]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let format = try args.choice("--format", ["jsonl"], default: "jsonl")
        switch format {
        default: return try runRaw(args, io)
        }
    }
}
