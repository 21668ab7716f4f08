import Events
import Ledger
import Projections

/// `progress-ledger explain LOG --user U PATH [--day D] [--json]`: a member
/// of the state, the rule behind it, and the events behind it.
enum ExplainCommand: Command {
    static let name = "explain"
    static let summary = "why a number of the state has its value: the rule and the events behind it"
    static let synopsis = """
        LOG|DIR --user U PATH [--day D] [--json] [--quiet]
        [--retry-limit N] [--streak-on daily|any] [--catalog FILE] [--days N] (as for 'state')
        """
    static let help = """
        PATH names a member of 'state --json' with dots: streak.current,
        streak.longest, daily_quiz.status, daily_quiz.retries_left,
        hints.balance, stats.accuracy, study_plan.weaknesses, achievements
        (each with its rule), or any other member path (a generic rule).

        Prints the value (equal to that member of 'state --json' with the same
        options), the rule that produced it in one sentence, and the learner's
        events behind it: seq, day (an attempt's start day), type and a
        one-line summary, as 'audit' shows them. An event is behind the value
        when folding it, with the state's own projections, changed the value
        or the members it is computed from (for streak.current: the finished
        daily attempt of each day of the current run).

        In a ledger directory DIR, only U's learner log is read.
        """
    static let json = Flag("--json", help: #"print {"path","value","rule","events":[{"seq","day","type","summary"}]}"#)
    static let options: [any OptionSpec] = [Common.user, StateCommand.day, json, StateCommand.retryLimit, StateCommand.streakOn,
                                            StateCommand.catalog, StateCommand.days, Common.quiet]
    static let examples = [
        "progress-ledger explain progress.log --user u-42 streak.current",
        "progress-ledger explain progress.log --user u-42 hints.balance --json",
    ]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        guard args.positionals.count == 2 else {
            throw CLIError.usage(args.positionals.count < 2 ? "expected LOG and PATH" : "expected LOG and one PATH, got \(args.positionals.count) arguments")
        }
        let member = args.positionals[1]
        let options = try StateCommand.stateOptions(args)
        let path = try LogInput.existingLearnerLog(args.positionals[0], user: options.user)
        var records: [Record] = []
        do {
            _ = try LogInput.read(path, io, quiet: args[Common.quiet], user: options.user) { records.append($0) }
        } catch {
            throw CLIError.failure(error.description)
        }
        let explanation: Explanation
        do { explanation = try Explanation.explain(member, records: records, options: options) } catch {
            throw CLIError.usage(error.description)
        }
        if args[Self.json] {
            io.write(bytes: explanation.jsonBytes)
            io.line()
            return ExitCode.ok
        }
        var value = JSONWriter()
        value.value(explanation.value)
        io.line("\(member) = \(String(decoding: value.bytes, as: UTF8.self))")
        io.line("rule: \(explanation.rule)")
        io.line(explanation.events.isEmpty ? "events: none" : "events (\(explanation.events.count)):")
        for e in explanation.events {
            io.line("  seq \(e.seq)  \(e.day.map { "\($0)" } ?? "-")  \(e.type ?? "-")  \(e.summary)")
        }
        return ExitCode.ok
    }
}
