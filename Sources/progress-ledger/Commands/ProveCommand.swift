import Ledger

/// `progress-ledger prove`: an inclusion proof of a line, or a consistency proof between checkpoints.
enum ProveCommand: Command {
    static let name = "prove"
    static let summary = "prove a line is in a checkpoint's tree, or that the log only appended between two"
    static let help = """
        With --seq N: prints a C2SP tlog-proof (c2sp.org/tlog-proof@v1) that line
        N of the log is in the tree FILE signs: its index (N - 1), the RFC 6962
        inclusion proof (the leaf's sibling first), a blank line, then FILE's
        checkpoint verbatim. Given with the line's bytes, anyone holding the
        log's verifier key checks it offline ('check-proof'), and learns
        nothing of any other line.

        With --from OLD: prints the RFC 6962 consistency proof from OLD's tree
        to NEW's, one base64 hash per line in the RFC's order (empty when the
        sizes are equal): an auditor who kept OLD checks NEW with it alone.

        The log is checked as 'verify' checks it, and must have each
        checkpoint's root at its size (else 'root' or 'size', exit 1): a proof
        is only made for a checkpoint of this log as it is. The checkpoints'
        signatures are not checked here (no key is needed): 'check-proof' does.
        An erased line's proof checks with the bytes it had.

        In a ledger directory DIR, the tree is U's learner log's.
        """
    static let seq = Option.integer("--seq", help: "the line to prove (its seq, from 1)", range: 1...Int.max)
    static let from = Option.nonEmpty("--from", value: "OLD", help: "an older checkpoint of the log: prove NEW extends it",
                                      what: "a checkpoint file").conflicting(with: seq)
    static let checkpoint = Receipts.checkpoint.required
    static let options: [any OptionSpec] = [Receipts.user, seq, from, checkpoint]
    static let usage = [Form("LOG|DIR", Usage.of([Receipts.user]) + [.option(seq), .option(checkpoint)]),
                        Form("LOG|DIR", Usage.of([Receipts.user]) + [.option(from), .option(checkpoint)])]
    static let examples = """
        progress-ledger prove progress.log --seq 42 --checkpoint today.checkpoint > line-42.tlog-proof
        progress-ledger prove progress.log --from yesterday.checkpoint --checkpoint today.checkpoint > appended.proof
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG or DIR")
        let newPath = try args.required(checkpoint)
        let seq = args[Self.seq], oldPath = args[Self.from]
        guard seq != nil || oldPath != nil else { throw CLIError.usage("give --seq N (a line) or --from OLD (an older checkpoint)") }
        let tree = try Receipts.tree(path, user: args[Receipts.user])
        let proof = try Receipts.failing { () throws(ReceiptError) -> [UInt8] in
            let new = try SignedCheckpoint(contentsOf: newPath)
            if let seq { return try tree.inclusionProof(seq: seq, checkpoint: new, checkpointPath: newPath).encoded }
            let old = try SignedCheckpoint(contentsOf: oldPath ?? "")
            return try tree.consistencyProof(from: old.checkpoint, to: new.checkpoint, paths: (oldPath ?? "", newPath)).encoded
        }
        io.write(bytes: proof)
        return ExitCode.ok
    }
}
