import Ledger

/// `progress-ledger split LOG DIR`: a log into a ledger directory of learner logs.
enum SplitCommand: Command {
    static let name = "split"
    static let summary = "turn a log into a ledger directory of per-learner logs"
    static let options: [OptionSpec] = []
    static let help = """
        LOG DIR

        Verifies LOG (a damaged log is refused, nothing written), then writes a
        new ledger directory DIR (it must not exist): DIR/ledger.json and one v1
        log per learner at DIR/learners/HH/H64.log (H64 the SHA-256 of the user
        id). Each learner's events keep their order in LOG and get the learner
        log's own seq and prev chain. ledger.json, written last, records LOG's
        head. Prints the learners, events and that head. LOG is not changed.

        A log with lines of a newer format version is refused (they cannot be
        re-sealed into a learner log).

        Example:
          progress-ledger split learners.log ledger.d
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        guard args.positionals.count == 2 else { throw CLIError.usage("expected LOG DIR") }
        let (log, dir) = (args.positionals[0], args.positionals[1])
        let copy = try LedgerDirectory.split(log: log, into: dir)
        io.line("\(dir): \(copy.logs) learner\(copy.logs == 1 ? "" : "s"), \(copy.events) event\(copy.events == 1 ? "" : "s"), source head \(copy.head)")
        return ExitCode.ok
    }
}
