import Ledger

/// `progress-ledger join DIR OUT`: a ledger directory back into one log.
enum JoinCommand: Command {
    static let name = "join"
    static let summary = "write a ledger directory's events into one new log, by instant then id"
    static let usage = [Form("DIR OUT")]
    static let help = """
        Reads (and checks) every learner log of the ledger directory DIR and
        writes their events to the new log OUT (it must not exist), ordered by
        instant (`at` as an instant), then id, as merge orders; OUT gets its own
        seq and prev chain. The events are held in memory: for small deployments.
        Prints the events and OUT's head.

        OUT's order is by time, not the order of the log DIR was split from:
        an event recorded late (an offline device's) moves back to its time.
        What the projections read in log order can then differ from that
        log's: which answer to a question came first, an answer before or after
        its attempt's end, the latest attempt. So 'split LOG DIR' then 'join DIR
        OUT' gives the same events, but OUT's state and report may differ from
        LOG's; keep LOG (or DIR, whose learner logs keep LOG's order) as the
        record.
        """
    static let examples = """
        progress-ledger join ledger.d all.log
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        guard args.positionals.count == 2 else { throw CLIError.usage("expected DIR OUT") }
        let (dir, out) = (args.positionals[0], args.positionals[1])
        guard let directory = try LogInput.directory(dir) else { throw CLIError.failure("\(dir): not a ledger directory (no ledger.json)") }
        let copy = try directory.join(into: out)
        io.line("\(out): \(copy.events) event\(copy.events == 1 ? "" : "s"), head \(copy.head)")
        io.error("progress-ledger join: \(out) is ordered by time, then id: not the order the learner logs recorded, "
                 + "so counts that follow log order (first answers, latest attempts) may differ from the log DIR was split from")
        return ExitCode.ok
    }
}
