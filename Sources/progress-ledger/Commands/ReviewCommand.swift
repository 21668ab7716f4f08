import Events
import Ledger
import Projections

/// `progress-ledger review`: the questions a learner should see again today
/// (FSRS-6 over their own answers), and how many come due in the next week.
/// The schedule is the state's `review` member (Projections); this file parses and prints.
enum ReviewCommand: Command {
    static let name = "review"
    static let summary = "what a learner should review today (FSRS-6 from their answers) and the week ahead"
    static let help = """
        Every question learner U answered is an item to review (the answers' "item",
        the app's stable id, when they carry one: one bank question shown in two
        quizzes is one item): a counted answer is a review of it (wrong: Again,
        right after a hint on it: Hard, right: Good), and FSRS-6, as the 'fsrs'
        package on PyPI computes it with no learning steps and no fuzz, schedules
        the item's next review from its reviews in time order. Prints the day's
        plan: at most --budget items a day (default \(FoldOptions.budget.shown); items answered on D that
        had been answered before count against it), the due ones the learner is
        most likely to have forgotten first, each with the quiz and question it
        was last seen in, how many more are due, and how many come due on each
        of the 7 days after D. docs/projections.md ("review") has the rules;
        'state --json' has every item under "review".

        --json prints {"user","day","budget","done","due":[items as in state],"more",
        "upcoming":[{"day","count"}]}: "due" the items to ask today, "more" the
        items due on D not among them. An app builds today's review quiz from
        "due" (its "item", or its "source" and "question"); answering it, with
        each answer's "item", moves those items.
        --fsrs-params takes the 21 parameters fitted on the learners' own reviews
        ('export --format revlog' is the optimizer's input); --retention the
        probability of recall to schedule for (higher: more reviews).

        A ledger directory DIR: only U's learner log is read. A damaged log is
        refused with verify's message (exit 1); a torn tail is a warning.
        """
    static let limit = Option.integer("--limit", help: "at most N of the day's items", range: 1...1_000_000).byDefault("the budget's")
    static let output = OutputOptions<TextOrJSON>(help: #"text or json: {"user","day","budget","done","due":[items as in state],"more","upcoming":[{"day","count"}]}"#,
                                                  default: .text)
    static let options: [any OptionSpec] = [Common.user, FoldOptions.day, FoldOptions.asOf, FoldOptions.budget, limit,
                                            FoldOptions.retention, FoldOptions.fsrsParams] + output.options + [Common.quiet]
    static let usage = [Form("LOG|DIR", options: options)]
    static let examples = """
        progress-ledger review learner.log --user u-42
        progress-ledger review learner.log --user u-42 --day 2025-10-21 --budget 30 --json
        progress-ledger review ledger.d --user u-42 --retention 0.85 --fsrs-params fitted.json
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let given = try args.onePositional("LOG")
        let (options, path, exists) = try FoldOptions.learnerLog(given, args)
        let format = try output.resolve(args)
        var projector = LearnerProjector(options: options)
        _ = try StateCommand.fold(into: &projector, given, path, exists: exists, io, quiet: args[Common.quiet],
                                  command: name, what: "the list")
        let agenda = ReviewAgenda(projector.state(), limit: args[limit])
        try output.write(json: agenda.jsonBytes, text: agenda.text, as: format, args, io)
        return ExitCode.ok
    }
}
