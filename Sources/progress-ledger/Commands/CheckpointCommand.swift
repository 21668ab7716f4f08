import Ledger

/// `progress-ledger checkpoint LOG|DIR --key KEYFILE --origin ORIGIN`: the log's signed tree head.
enum CheckpointCommand: Command {
    static let name = "checkpoint"
    static let summary = "sign the log's Merkle tree head: a C2SP checkpoint"
    static let help = """
        Checks the whole log as 'verify' does (a damaged log is refused with
        verify's message), computes the RFC 6962 Merkle tree over its first N
        lines (every line by default; leaf i: the SHA-256 of line i, a
        redaction stub's 'redacted' for an erased line, so erasing a learner
        changes no checkpoint) and prints it as a C2SP tlog-checkpoint, the
        origin, the tree size and the base64 root, signed with KEYFILE as a
        C2SP signed note.

        In a ledger directory DIR, the tree is U's learner log's (each
        learner log has its own): give each its own ORIGIN.

        The checkpoint is what 'prove' proves lines and appends against, what
        'verify --checkpoint' checks a log against, and what Go's
        golang.org/x/mod/sumdb/note opens with the verifier key (docs/receipts.md).
        """
    static let size = Option.integer("--size", help: "the tree of the first N lines", range: 0...Int.max).byDefault("every line")
    static let key = Receipts.key.required, origin = Receipts.origin.required
    static let options: [any OptionSpec] = [Receipts.user, key, origin, size]
    static let usage = [Form("LOG", options: [key, origin, size]), Form("DIR", [.option(Receipts.user)] + Usage.of([key, origin, size]))]
    static let examples = """
        progress-ledger checkpoint progress.log --key school.key --origin school.example/progress > today.checkpoint
        progress-ledger checkpoint ledger.d --user u-42 --key school.key --origin school.example/progress/u-42
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG or DIR")
        let keyPath = try args.required(key), origin = try args.required(origin)
        let tree = try Receipts.tree(path, user: args[Receipts.user])
        let signed = try Receipts.failing { () throws(ReceiptError) in
            try tree.checkpoint(origin: origin, signer: try NoteSigner(contentsOf: keyPath), size: args[Self.size])
        }
        io.write(bytes: signed.encoded)
        return ExitCode.ok
    }
}
