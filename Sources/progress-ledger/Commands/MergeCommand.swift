import Ledger

/// `progress-ledger merge LOG... OUT`: logs that grew apart, into one new log.
enum MergeCommand: Command {
    static let name = "merge"
    static let summary = "merge logs that were never synced into a new log (events once by id, by time)"
    static let usage = [Form("LOG... OUT")]
    static let help = """
        Combines logs that grew apart (two devices of the past, a backup and a live
        log) into the new log OUT: every LOG is verified first (a damaged one names
        its file and line, and nothing is written); each event is taken once by id;
        events are ordered by the instant of 'at', ties by id (byte order), and
        chained again from seq 1. The output's bytes do not depend on the order or
        the repetition of the inputs. An id with different content in two places is
        reported with both files and lines, and OUT is not written (exit 1). OUT must
        not exist; it is written whole (a temporary file, fsync, rename), mode 0600.
        A line of a format version this reader does not know is relayed: placed by
        its 'at', only its seq and prev rewritten; one laid out otherwise than every
        version's writer lays it out is refused.

        As 'split LOG DIR' and 'join DIR OUT', the inputs come first and the new
        file last (before version 1.2 OUT came first: such a command line names
        an existing log last, which is refused, so no log is ever written over).
        """
    static let examples = """
        progress-ledger merge phone.log tablet.log backup.log all.log
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        guard args.positionals.count >= 2, let out = args.positionals.last else {
            throw CLIError.usage("expected at least one LOG, then OUT (the new log)")
        }
        let inputs = Array(args.positionals.dropLast())
        let summary: LogMerge.Summary
        do {
            summary = try LogMerge.merge(inputs, into: out)
        } catch where error.code == .permission && error.path == out {
            throw CLIError.failure(error.description + " (merge names the new log last: merge LOG... OUT)")
        } catch {
            throw CLIError.failure(error.description)
        }
        io.line("\(out): \(summary.events) event\(summary.events == 1 ? "" : "s"), head \(summary.head)")
        return ExitCode.ok
    }
}
