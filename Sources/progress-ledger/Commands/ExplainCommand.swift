import Events
import Ledger
import Projections

/// `progress-ledger explain LOG --user U PATH [--day D] [--format text|json]`: a member
/// of the state, the rule behind it, and the events behind it.
enum ExplainCommand: Command {
    static let name = "explain"
    static let summary = "why a number of the state has its value: the rule and the events behind it"
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
        or the members it is computed from (for streak.current: the event that
        made each day of the current run active). The learner's events are
        folded once, so the time grows with their number, not its square.

        A learner without events is a note on stderr, as for 'state', and the
        value is the empty state's (exit 0). In a ledger directory DIR, only
        U's learner log is read.
        """
    static let output = OutputOptions<TextOrJSON>(help: #"text or json: {"path","value","rule","events":[{"seq","day","type","summary"}]}"#,
                                                  default: .text)
    /// The options of the fold that `state` takes too.
    static let fold: [any OptionSpec] = [FoldOptions.retryLimit, FoldOptions.streakOn, FoldOptions.catalog, FoldOptions.days,
                                         FoldOptions.retention, FoldOptions.fsrsParams]
    static let options: [any OptionSpec] = [Common.user, FoldOptions.day] + output.options + fold + [Common.quiet]
    static let usage = [Form("LOG|DIR", [.option(Common.user), .operand("PATH")] + Usage.of([FoldOptions.day] + output.options + [Common.quiet])
                             + [.note("as for 'state'", Usage.of(fold))])]
    static let examples = """
        progress-ledger explain progress.log --user u-42 streak.current
        progress-ledger explain progress.log --user u-42 hints.balance --json
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        guard args.positionals.count == 2 else {
            throw CLIError.usage(args.positionals.count < 2 ? "expected LOG and PATH" : "expected LOG and one PATH, got \(args.positionals.count) arguments")
        }
        let member = args.positionals[1]
        let format = try output.resolve(args)
        let (options, path, exists) = try FoldOptions.learnerLog(args.positionals[0], args)
        var records: [Record] = []
        if exists {
            let read: LogRead
            do {
                read = try LogInput.read(path, io, quiet: args[Common.quiet], user: options.user) { records.append($0) }
            } catch {
                throw CLIError.failure(error.description)
            }
            LogInput.noteIfEmpty(name, read.summary, kept: records.count, options, in: path, io)   // explain takes no --as-of
        } else {
            LogInput.noEvents(name, user: options.user, in: args.positionals[0], why: " (no learner log)", io)
        }
        let explanation: Explanation
        do { explanation = try Explanation.explain(member, records: records, options: options) } catch {
            throw CLIError.usage(error.description)
        }
        let out = DataOutput(args[output.out], io)
        switch format {
        case .json:
            out.write(explanation.jsonBytes + [0x0A])
        case .text:
            var value = JSONWriter()
            value.value(explanation.value)
            out.line("\(member) = \(String(decoding: value.bytes, as: UTF8.self))")
            out.line("rule: \(explanation.rule)")
            out.line(explanation.events.isEmpty ? "events: none" : "events (\(explanation.events.count)):")
            for e in explanation.events {
                out.line("  seq \(e.seq)  \(e.day.map { "\($0)" } ?? "-")  \(e.type ?? "-")  \(e.summary)")
            }
        }
        try out.finish()
        return ExitCode.ok
    }
}
