import Ledger
import LedgerAnalytics

/// `progress-ledger report LOG... [--from D] [--to D] [--format text|json|csv|html] [--out FILE]`
enum ReportCommand: Command {
    static let name = "report"
    static let summary = "per-day analytics across learners as JSON, CSV, a table or an HTML page"
    static let help = """
        Counts, per calendar day from --from to --to, what all learners did: active
        users, quizzes started and finished, completion rate, mean score, answers,
        accuracy, hints used, puzzles solved and failed, submissions; then the totals,
        accuracy per skill, and the distribution of daily streaks at --to.

        Several logs are read in the order given, each checked on its own as verify
        checks it; their events are counted as one sequence (an attempt started in
        one log may finish in the next). An event whose id was read from an earlier
        log is counted once, where first read (report A A equals report A); with
        different content, a warning on stderr names both places. A damaged log is refused with verify's message.

        A ledger directory DIR: its learner logs are folded in parallel on all
        cores and combined; the report is the same, byte for byte, as that of
        the single log it was split from.

        Days are the learners' local dates; an attempt's answers, hints and end count
        on the day it started. Days without events are rows of zeros.
        """
    static let days = DayRange(from: "first day", byDefault: "the first day with an event",
                               to: "last day; the streaks are computed as 'state --day D' would from the events up to D only",
                               byDefault: "the last day with an event")
    static let output = OutputOptions(tableHelp: "text (a table for a terminal), json (the report's object, "
        + "docs/projections.md), csv (one row per day) or html (one self-contained page with charts)")
    static let options: [any OptionSpec] = days.options + output.options + [Common.quiet]
    static let usage = [Form("LOG...|DIR", options: options)]
    static let examples = """
        progress-ledger report learners.log
        progress-ledger report jan.log feb.log --from 2025-01-01 --to 2025-02-28 --format html --out report.html
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let logs = args.positionals
        guard !logs.isEmpty else { throw CLIError.usage("missing LOG (one or more log files)") }
        let format = try output.resolve(args)
        let (from, to) = try days.resolve(args)
        let report = try LogInput.reading(logs, io, quiet: args[Common.quiet]) { (source, progress, warning) throws(LedgerError) in
            try source.report(from: from, to: to, progress: progress, warning: warning)
        }
        try output.write(report, as: format, args, io)
        return ExitCode.ok
    }
}
