import Events
import Ledger
import Projections

/// `progress-ledger items LOG [--from D] [--to D] [--format text|json|csv|html] [--out FILE]`
enum ItemsCommand: Command {
    static let name = "items"
    static let summary = "question analysis: per question answers, choices, discrimination; drop-off per quiz"
    static let help = """
        Per quiz and question, over the counted (first) answers of the attempts started
        on a day from --from to --to (in any state): answers, percent right, the choices
        made, the most chosen wrong choice, the discrimination (corrected point-biserial
        over finished attempts; null under 10 or without variance), the median ms and
        the answers given after a hint. Per quiz: attempts started, finished, abandoned,
        and after how many answers the abandoned ones stopped. The same per submitted
        content and question (without ms, hints and discrimination). Resets are ignored.

        A ledger directory DIR: every learner log is read.
        """
    static let examples = """
        progress-ledger items learners.log
        progress-ledger items learners.log --from 2025-10-01 --to 2025-10-31 --format csv --out items.csv
        """
    static let days = DayRange(from: "first day", byDefault: "no lower bound", to: "last day", byDefault: "no upper bound")
    static let output = OutputOptions(tableHelp: "text, json, csv (one row per question) or html (one self-contained page)")
    static let options: [any OptionSpec] = days.options + output.options + [Common.quiet]
    static let usage = [Form("LOG|DIR", options: options)]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let log = try args.onePositional("LOG")
        let format = try output.resolve(args)
        let (from, to) = try days.resolve(args)
        let analysis = try LogInput.reading([log], io, quiet: args[Common.quiet]) { (source, progress, warning) throws(LedgerError) in
            try source.items(from: from, to: to, progress: progress, warning: warning)
        }
        try output.write(analysis, as: format, args, io)
        return ExitCode.ok
    }
}
