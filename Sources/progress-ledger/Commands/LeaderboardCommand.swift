import Events
import Ledger
import Projections

/// `progress-ledger leaderboard LOG --period week|month --on D [--by finished|percent|streak] [--top N] [--exclude FILE]`
enum LeaderboardCommand: Command {
    static let name = "leaderboard"
    static let summary = "weekly or monthly ranking of learners (finished quizzes, mean score, streak)"
    static let help = """
        LOG|DIR --period week|month --on YYYY-MM-DD [--by finished|percent|streak] [--top N]
                                   [--exclude FILE] [--json] [--quiet]

        Ranks the learners over the ISO week (Monday to Sunday) or calendar month that
        contains --on. Each learner is folded as 'state --day LAST' would (LAST: the
        period's last day; resets apply).
          finished  finished quizzes of every mode started in the period (listed when > 0)
          percent   mean score percent of those (listed with at least 3)
          streak    the daily streak at LAST (listed when > 0)
        Ranks are standard competition ranks (1, 2, 2, 4); ties are listed by user id.

        A ledger directory DIR: every learner log is read.

        Options:
          --period P    week or month; required
          --on D        a day of the period; required
          --by M        finished (default), percent or streak
          --top N       only the rows whose rank is at most N
          --exclude F   a file of user ids, one a line (learners who opted out): they
                        never appear and take no rank
          --json        print JSON instead of a table
          --quiet       no progress on stderr while reading a large log

        Examples:
          progress-ledger leaderboard learners.log --period week --on 2025-10-21 --top 10
          progress-ledger leaderboard learners.log --period month --on 2025-10-01 --by percent --exclude opted-out.txt --json
        """
    static let options: [OptionSpec] = [
        .value("--period"), .value("--on"), .value("--by"), .value("--top"), .value("--exclude"),
        .flag("--json"), .flag("--quiet"),
    ]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let log = try args.onePositional("LOG")
        guard args.value("--period") != nil else { throw CLIError.usage("missing --period week|month") }
        let period = Leaderboard.Period(rawValue: try args.choice("--period", Leaderboard.Period.allCases.map(\.rawValue),
                                                                  default: "week")) ?? .week
        guard let on = try args.calendarDay("--on") else { throw CLIError.usage("missing --on YYYY-MM-DD") }
        let measure = Leaderboard.Measure(rawValue: try args.choice("--by", Leaderboard.Measure.allCases.map(\.rawValue),
                                                                    default: "finished")) ?? .finished
        let top = args.value("--top") == nil ? nil : try args.integer("--top", default: 0, range: 1...Int(Int32.max))
        var excluded: [String] = []
        if let file = args.value("--exclude") {
            let bytes: [UInt8]
            do { bytes = try SmallFile.read(file) } catch {
                throw CLIError.failure("\(error.path): cannot read the excluded users: \(error.message)")
            }
            excluded = Leaderboard.excludedUsers(bytes)
        }
        var builder = LeaderboardBuilder(period: period, containing: on)
        try LogInput.readEvery(log, io, quiet: args.flag("--quiet")) { builder.add($0) }
        let board = builder.leaderboard(by: measure, excluding: excluded, top: top)
        io.write(bytes: args.flag("--json") ? board.json + [0x0A] : Array(board.text.utf8))
        return ExitCode.ok
    }
}
