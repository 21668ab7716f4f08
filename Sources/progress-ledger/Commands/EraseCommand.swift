import Ledger

/// `progress-ledger erase LOG --user U [--dry-run]`: replaces every line of a
/// learner by its redaction stub and prints the receipt.
enum EraseCommand: Command {
    static let name = "erase"
    static let summary = "erase a learner: their lines become redaction stubs; the chain still verifies"
    static let help = """
        Replaces every line of learner U in LOG by a redaction stub that keeps
        the line's seq, its prev and the SHA-256 of the erased line, and
        nothing else of it (see docs/format.md and docs/privacy.md). Every
        other line keeps its bytes, so 'verify' still passes, the head does
        not change, and a head kept before the erasure still checks with
        'verify --expect-head'.

        Takes the writer lock, checks the whole log first (a damaged log is
        refused), writes the new log beside the old one, fsyncs it and
        renames it over the old one: a crash leaves the old log or the new
        one, never a mix. Then removes, in the log's folder, the snapshots
        made from this log or for U, and the torn-tail side files that hold
        U's data. Snapshots kept in other folders are rejected at their next
        use; remove them too.

        Prints a receipt: the user, the lines erased, the head before and
        after, the files removed. Appends nothing.

        An erased event's id can be appended again: a device that still holds
        U's events must erase them too, or its next sync re-sends them.

        In a ledger directory DIR, U's learner log is erased: it is left holding its stubs alone.
        """
    static let dryRun = Flag("--dry-run", help: "print the receipt and change nothing")
    static let options: [any OptionSpec] = [Common.user, dryRun]
    static let usage = [Form("LOG|DIR", options: options)]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let given = try args.onePositional("LOG path")
        let user = try args.required(Common.user)
        // In a ledger directory, the learner's own log is replaced by its stubs alone.
        let path = try LogInput.existingLearnerLog(given, user: user)
        let receipt = try erase(path: path, user: user, dryRun: args[Self.dryRun])
        for line in lines(receipt) { io.line(line) }
        return ExitCode.ok
    }

    /// The receipt, as printed.
    static func lines(_ r: ErasureReceipt) -> [String] {
        let n = r.linesErased
        var out = [
            "\(r.dryRun ? "dry run (nothing changed): would erase" : "erased") user \(r.user) in \(r.path): "
                + "\(n) line\(n == 1 ? "" : "s")\(r.alreadyRedacted > 0 ? " (\(r.alreadyRedacted) already redacted before)" : "")",
            "seqs: \(r.erasedSeqs.isEmpty ? "none" : r.erasedSeqs.map(String.init).joined(separator: ","))",
            "head before: \(r.headBefore)",
            "head after:  \(r.headAfter)\(r.headAfter == r.headBefore ? " (unchanged: each stub keeps its line's hash)" : "")",
        ]
        for file in r.removedFiles { out.append("\(r.dryRun ? "would remove" : "removed"): \(file)") }
        return out
    }
}
