import Ledger

/// `progress-ledger pending OUTBOX --replica REPLICA`: what a device pushes.
enum PendingCommand: Command {
    static let name = "pending"
    static let summary = "print the outbox events not yet in the replica, ready to append on the server"
    static let help = """
        OUTBOX --replica REPLICA

        Prints the events of OUTBOX whose ids are not in REPLICA (a missing REPLICA
        holds nothing), in outbox order, as JSON lines without v, seq and prev: what
        a device pushes ('| progress-ledger append SERVER'). Both logs are verified
        first. An id in both with different content is refused as
        conflicting_duplicate naming both files and lines (exit 1). Lines of a newer
        format version are left out.

        Options:
          --replica REPLICA   the device's replica of the server log

        Examples:
          progress-ledger pending outbox.log --replica replica.log | progress-ledger append server.log
        """
    static let options: [OptionSpec] = [.value("--replica")]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("OUTBOX")
        guard let replica = args.value("--replica") else { throw CLIError.usage("missing --replica REPLICA") }
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
