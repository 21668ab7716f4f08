import Ledger

/// `progress-ledger pull REPLICA`: the server's raw lines on stdin, appended to the replica if they continue it.
enum PullCommand: Command {
    static let name = "pull"
    static let summary = "append a server's raw lines (stdin) to a replica if they continue its chain"
    static let usage = [Form("REPLICA")]
    static let help = """
        Reads raw log lines on stdin (what 'export --after SEQ' prints) and appends
        them to REPLICA byte for byte, if and only if they continue its chain (seq
        next, prev the SHA-256 of its last line). Lines REPLICA already holds (same
        seq, same bytes) are skipped, so a repeated pull is harmless. A line that
        does not continue the chain, or differs from REPLICA's line at its seq, is
        refused as replica_diverged naming the input's line and the replica's: nothing
        is written (a replica that did not exist is not created), exit 1. A new
        replica is created with mode 0600. Prints what was appended and the head.
        """
    static let examples = """
        progress-ledger export server.log --after 120 | progress-ledger pull replica.log
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("REPLICA")
        let input = try io.readStandardInput()
        let result: PullResult
        do {
            result = try Replica(path: path).pull(input: input, source: "stdin")
        } catch {
            throw CLIError.failure(error.description)
        }
        io.line("appended \(result.appended), already held \(result.skipped), head \(result.head)")
        return ExitCode.ok
    }
}
