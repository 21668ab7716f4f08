import Ledger
import LedgerServer

/// `export --store URI DIR`: a PostgreSQL store's lines as a ledger directory.
extension ExportCommand {
    static func runStore(_ uri: String, _ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("DIR")
        let summary: PostgresExport.Summary
        do { summary = try PostgresExport.export(uri: uri, to: path) } catch { throw CLIError.failure(error.description) }
        io.error("progress-ledger export: wrote \(summary.learners) learner log\(summary.learners == 1 ? "" : "s"), "
                 + "\(summary.events) event\(summary.events == 1 ? "" : "s") to \(path)")
        return ExitCode.ok
    }
}
