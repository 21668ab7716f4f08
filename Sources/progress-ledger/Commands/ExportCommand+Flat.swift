import Events
import Ledger
import Projections

extension ExportCommand {
    /// `export LOG|DIR --format flat --out OUTDIR` (docs/analytics.md).
    static func runFlat(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let input = try args.onePositional("LOG or DIR")
        guard let out = args[Self.out] else { throw CLIError.usage("--format flat needs --out OUTDIR") }
        // A ledger directory: its learner logs in name order, each in seq order.
        var logs = [input]
        if let directory = try LogInput.directory(input) {
            do throws(LedgerError) { logs = try directory.learnerLogs().map(\.path) } catch { throw CLIError.failure(error.description) }
        }
        // Every log is checked before anything is written.
        for log in logs {
            let checked: VerifyReport
            do throws(LedgerError) { checked = try verify(path: log) } catch { throw CLIError.failure(error.description) }
            if let problem = checked.problem { throw CLIError.failure("\(log): \(problem)") }
        }
        let output = try PartitionedOutput(path: out)
        var export = FlatExport()
        var newer = 0
        for log in logs {
            var failure: LedgerError? = nil
            do throws(LedgerError) {
                _ = try LogInput.read(log, io, quiet: args[Common.quiet]) { record in
                    guard failure == nil else { return }
                    guard let (day, line) = export.row(record) else { newer += 1; return }
                    do throws(LedgerError) { try output.add(day: day.description, line: line) } catch { failure = error }
                }
            } catch {
                throw CLIError.failure(error.description)
            }
            if let failure { throw CLIError.failure(failure.description) }
        }
        try output.finish()
        if newer > 0 { io.error("progress-ledger export: \(newer) line\(newer == 1 ? "" : "s") of a newer format version not exported") }
        return ExitCode.ok
    }
}
