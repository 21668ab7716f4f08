import Ledger
import LedgerAnalytics

extension ExportCommand {
    /// `export LOG|DIR --format flat --out OUTDIR [--user U]` (docs/analytics.md).
    static func runFlat(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let input = try args.onePositional("LOG or DIR")
        guard let out = args[Self.out] else { throw CLIError.usage("--format flat needs --out OUTDIR") }
        let user = args[Self.user]
        // A ledger directory: its learner logs in name order (only U's with --user), each in seq order.
        let newer = try LogInput.reading([input], io, quiet: args[Common.quiet]) { (source, progress, warning) throws(LedgerError) in
            try source.exportFlat(to: out, user: user, progress: progress, warning: warning)
        }
        if newer > 0 { io.error("progress-ledger export: \(newer) line\(newer == 1 ? "" : "s") of a newer format version not exported") }
        return ExitCode.ok
    }
}
