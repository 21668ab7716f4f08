import Ledger

/// `progress-ledger split LOG DIR`: a log into a ledger directory of learner logs.
enum SplitCommand: Command {
    static let name = "split"
    static let summary = "turn a log into a ledger directory of per-learner logs"
    static let help = """
        Writes a new ledger directory DIR (it must not exist) from LOG:
        DIR/ledger.json and one v1 log per learner at DIR/learners/HH/H64.log
        (H64 the SHA-256 of the user id). Each learner's events keep their
        order in LOG and get the learner log's own seq and prev chain.
        ledger.json, written last, records LOG's head. Prints the learners,
        events and that head. LOG is not changed.

        LOG is read once and checked as verify does, each event going to a work
        file under DIR/.split (one of 4,096, by its learner's H64); then each
        work file's learners are written in parallel, each learner log fsync'd.
        Memory does not grow with the number of learners. A damaged LOG, or one
        with lines of a newer format version (they cannot be re-sealed into a
        learner log), is refused and DIR is removed: nothing is left. A failure
        later (a full disk) leaves DIR without ledger.json, so it is not taken
        for a ledger.
        """
    static let options: [any OptionSpec] = [Common.quiet]
    static let usage = [Form("LOG DIR", options: options)]
    static let examples = """
        progress-ledger split learners.log ledger.d
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        guard args.positionals.count == 2 else { throw CLIError.usage("expected LOG DIR") }
        let (log, dir) = (args.positionals[0], args.positionals[1])
        let meter = ProgressMeter(io, label: log, quiet: args[Common.quiet])
        defer { meter.finish() }
        let copy = try LedgerDirectory.split(log: log, into: dir, progress: { meter.update($0, $1) })
        io.line("\(dir): \(copy.logs) learner\(copy.logs == 1 ? "" : "s"), \(copy.events) event\(copy.events == 1 ? "" : "s"), source head \(copy.head)")
        return ExitCode.ok
    }
}
