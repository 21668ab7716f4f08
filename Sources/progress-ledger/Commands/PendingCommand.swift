import Ledger

/// `progress-ledger pending OUTBOX --replica REPLICA`: what a device pushes.
enum PendingCommand: Command {
    static let name = "pending"
    static let summary = "print the outbox events not yet in the replica, ready to append on the server"
    static let help = """
        Prints the events of OUTBOX whose ids are not in REPLICA (a missing REPLICA
        holds nothing), in outbox order, as JSON lines without v, seq and prev: what
        a device pushes ('| progress-ledger append SERVER'). Both logs are verified
        first. An id in both with different content is refused as
        conflicting_duplicate naming both files and lines (exit 1). Lines of a newer
        format version are left out.
        """
    static let replica = Option("--replica", value: "REPLICA", help: "the device's replica of the server log").required
    static let options: [any OptionSpec] = [replica]
    static let usage = [Form("OUTBOX", options: options)]
    static let examples = """
        progress-ledger pending outbox.log --replica replica.log | progress-ledger append server.log
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("OUTBOX")
        let replica = try args.required(Self.replica)
        do {
            for event in try Outbox(path: path).pending(replica: replica) {
                io.write(bytes: event.json + [0x0A])
            }
        } catch {
            throw CLIError.failure(error.description)
        }
        return ExitCode.ok
    }
}
