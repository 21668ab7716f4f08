import Events
import Ledger
import Projections
import Rendering

/// `progress-ledger leaderboard LOG --period week|month --on D [--by finished|percent|streak] [--top N] [--exclude FILE] [--format text|json]`
enum LeaderboardCommand: Command {
    static let name = "leaderboard"
    static let summary = "weekly or monthly ranking of learners (finished quizzes, mean score, streak)"
    static let help = """
        Ranks the learners over the ISO week (Monday to Sunday) or calendar month that
        contains --on. Each learner is folded as 'state --day LAST' would (LAST: the
        period's last day; resets apply).
          finished  finished quizzes of every mode started in the period (listed when > 0)
          percent   mean score percent of those (listed with at least 3)
          streak    the daily streak at LAST (listed when > 0)
        Ranks are standard competition ranks (1, 2, 2, 4); ties are listed by user id.

        A ledger directory DIR: every learner log is read.
        """
    static let period = Option<Leaderboard.Period>.choice("--period", value: "P", help: "week or month").required
    static let on = Option.day("--on", help: "a day of the period").required
    static let by = Option<Leaderboard.Measure>.choice("--by", value: "M", help: "finished, percent or streak").defaulting(to: .finished)
    static let top = Option.integer("--top", help: "only the rows whose rank is at most N", range: 1...Int(Int32.max))
    static let exclude = Option("--exclude", value: "FILE", help: "a file of user ids, one a line (learners who opted out): they never appear and take no rank")
    static let output = OutputOptions<TextOrJSON>(help: "text (a table) or json", default: .text)
    static let options: [any OptionSpec] = [period, on, by, top, exclude] + output.options + [Common.quiet]
    static let usage = [Form("LOG|DIR", options: options)]
    static let examples = """
        progress-ledger leaderboard learners.log --period week --on 2025-10-21 --top 10
        progress-ledger leaderboard learners.log --period month --on 2025-10-01 --by percent --exclude opted-out.txt --json
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let log = try args.onePositional("LOG")
        let period = try args.required(Self.period)
        let on = try args.required(Self.on)
        let format = try output.resolve(args)
        var excluded: [String] = []
        if let file = args[Self.exclude] {
            let bytes: [UInt8]
            do { bytes = try SmallFile.read(file) } catch {
                throw CLIError.failure("\(error.path): cannot read the excluded users: \(error.detail)")
            }
            excluded = Leaderboard.excludedUsers(bytes)
        }
        let builder = try LogInput.reading([log], io, quiet: args[Common.quiet]) { (source, progress, warning) throws(LedgerError) in
            try source.leaderboard(period: period, containing: on, progress: progress, warning: warning)
        }
        let board = builder.leaderboard(by: args[Self.by], excluding: excluded, top: args[Self.top])
        try output.write(json: board.json, text: board.text, as: format, args, io)
        return ExitCode.ok
    }
}
