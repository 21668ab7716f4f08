import Ledger

/// `progress-ledger check-proof`: checks an inclusion or consistency proof offline.
enum CheckProofCommand: Command {
    static let name = "check-proof"
    static let summary = "check a proof offline with the log's verifier key (no log needed)"
    static let help = """
        With --line FILE: PROOF is a C2SP tlog-proof (from 'prove' or 'export
        --receipts') and FILE the line it proves (one line of the log, its LF
        optional). Checks the checkpoint the proof carries is signed by
        VKEYFILE's key (and is ORIGIN's), and that the line's SHA-256 and the
        proof's hashes lead to its root at the proof's index.

        With --from OLD --checkpoint NEW: PROOF is a consistency proof (from
        'prove --from'). Checks both checkpoints are signed by the key and of
        the same log (ORIGIN's), and that the proof leads from OLD's root to
        NEW's: the log only appended between them.

        Prints what was proved and exits 0; otherwise prints what failed as
        'FILE: KIND: detail' and exits 1. Kinds: key (not signed by this key),
        signature (a signature that does not verify: the checkpoint was
        changed), origin, size (an index past the tree, an old tree larger than
        the new), path (a proof with the wrong number of hashes), root (the
        line or a hash is not the one the log holds), malformed (a file not in
        its format), and the file errors (not_found...).
        """
    static let line = Option.nonEmpty("--line", value: "FILE", help: "the proved line's bytes (one line, its LF optional)", what: "a file name")
    static let from = Option.nonEmpty("--from", value: "OLD", help: "the older checkpoint of a consistency proof", what: "a checkpoint file")
        .conflicting(with: line).needing(Receipts.checkpoint)
    static let vkey = Receipts.vkey.required
    static let options: [any OptionSpec] = [line, from, Receipts.checkpoint.conflicting(with: line), vkey, Receipts.expectedOrigin]
    static let usage = [Form("PROOF", [.option(line)] + Usage.of([vkey, Receipts.expectedOrigin])),
                        Form("PROOF", [.option(from), .option(Receipts.checkpoint)] + Usage.of([vkey, Receipts.expectedOrigin]))]
    static let examples = """
        progress-ledger check-proof line-42.tlog-proof --line line-42.jsonl --vkey school.vkey --origin school.example/progress
        progress-ledger check-proof appended.proof --from yesterday.checkpoint --checkpoint today.checkpoint --vkey school.vkey
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let proofPath = try args.onePositional("PROOF")
        let vkeyPath = try args.required(vkey)
        let origin = args[Receipts.expectedOrigin]
        let linePath = args[Self.line], oldPath = args[Self.from]
        guard linePath != nil || oldPath != nil else {
            throw CLIError.usage("give --line FILE (an inclusion proof) or --from OLD --checkpoint NEW (a consistency proof)")
        }
        let newPath = oldPath == nil ? nil : try args.required(Receipts.checkpoint)
        do throws(ReceiptError) {
            let verifier = try NoteVerifier(contentsOf: vkeyPath)
            if let linePath {
                let proof = try InclusionProof(contentsOf: proofPath)
                let tree = try proof.check(line: try InclusionProof.line(contentsOf: linePath), verifier: verifier, origin: origin, path: proofPath)
                io.line("\(proofPath): ok: \(linePath) is line \(proof.index + 1) of \(tree.origin) at size \(tree.size) "
                        + "(root \(TreeHead(size: tree.size, root: tree.root))), signed by \(verifier.label)")
            } else if let oldPath, let newPath {
                let old = try SignedCheckpoint(contentsOf: oldPath), new = try SignedCheckpoint(contentsOf: newPath)
                try ConsistencyProof(contentsOf: proofPath).check(from: old, to: new, verifier: verifier, origin: origin,
                                                                  paths: (proofPath, oldPath, newPath))
                io.line("\(proofPath): ok: \(new.checkpoint.origin) at size \(new.checkpoint.size) (\(newPath)) only appended to "
                        + "size \(old.checkpoint.size) (\(oldPath)), signed by \(verifier.label)")
            }
        } catch {
            io.line(error.description)
            return ExitCode.failure
        }
        return ExitCode.ok
    }
}
