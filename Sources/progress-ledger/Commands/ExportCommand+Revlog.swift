import Ledger
import LedgerAnalytics

extension ExportCommand {
    /// `export LOG|DIR --format revlog [--user U] [--out FILE]`: the reviews
    /// as the FSRS optimizer's CSV, written only once every log has been read and checked.
    static func runRevlog(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let input = try args.onePositional("LOG or DIR")
        // A ledger directory: the learner's log with --user, else every learner log.
        let csv = try LogInput.reading([input], io, quiet: args[Common.quiet]) { (source, progress, warning) throws(LedgerError) in
            try source.revlog(user: args[Self.user], progress: progress, warning: warning)
        }
        try OutputFile.write(csv, to: args[Self.out], io)
        return ExitCode.ok
    }
}
