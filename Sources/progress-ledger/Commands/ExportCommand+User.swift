import Events
import Ledger
import Projections

/// `export --user U [--state]`: a learner's own lines, verified first, and their state.
extension ExportCommand {
    static func runUser(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let user = try args.required(Self.user)
        let given = try args.onePositional("LOG")
        let path = try LogInput.existingLearnerLog(given, user: user)
        // The key is read and the folder started before the log is.
        var receipts: (signer: NoteSigner, origin: String, folder: String)? = nil
        if let folder = args[Self.receipts] {
            let keyPath = try args.required(Receipts.key)
            receipts = (try Receipts.failing { () throws(ReceiptError) in try NoteSigner(contentsOf: keyPath) },
                        try args.required(Receipts.origin), folder)
        }
        let lines: LogReader.UserLines
        do { lines = try LogReader(path: path).lines(of: user) } catch { throw CLIError.failure(error.description) }
        for warning in lines.summary.warnings { io.error("\(path): warning: \(warning)") }
        if lines.count == 0 { noEvents(user, in: path, io) }
        if let receipts { try writeReceipts(lines, of: given, user: user, receipts.signer, receipts.origin, to: receipts.folder, io) }
        var bytes = lines.bytes
        if args[Self.state] {
            var projector = LearnerProjector(options: StateOptions(user: user))
            for record in lines.records { projector.apply(record) }
            bytes += Array(#"{"state":"#.utf8) + projector.state().jsonBytes + [UInt8(ascii: "}"), 0x0A]
        }
        try OutputFile.write(bytes, to: args[Self.out], io)
        return ExitCode.ok
    }
}

extension ExportCommand {
    /// `--receipts OUTDIR`: the log's signed checkpoint and, for each of the
    /// learner's lines, the line and its proof, in a folder written whole.
    static func writeReceipts(_ lines: LogReader.UserLines, of path: String, user: String, _ signer: NoteSigner, _ origin: String,
                              to outdir: String, _ io: Terminal) throws {
        let tree = try Receipts.tree(path, user: try LogInput.directory(path) == nil ? nil : user)
        let (checkpoint, proofs) = try Receipts.failing { () throws(ReceiptError) in
            try tree.receipts(seqs: lines.seqs, origin: origin, signer: signer)
        }
        let folder: WholeFolder
        do { folder = try WholeFolder(path: outdir) } catch { throw CLIError.failure(error.description) }
        do throws(LedgerError) {
            try folder.write("checkpoint", checkpoint.encoded)
            var start = 0
            for (seq, proof) in zip(lines.seqs, proofs) {
                guard let end = lines.bytes[start...].firstIndex(of: 0x0A) else {
                    throw LedgerError(.io, path: outdir, "line of seq \(seq) not found in the learner's lines; the receipts folder was not written")
                }
                try folder.write("\(seq).jsonl", Array(lines.bytes[start...end]))
                try folder.write("\(seq).tlog-proof", proof.encoded)
                start = end + 1
            }
            try folder.finish()
        } catch {
            folder.abandon()
            throw CLIError.failure(error.description)
        }
        let size = checkpoint.checkpoint.size
        io.error("progress-ledger export: \(proofs.count) receipt\(proofs.count == 1 ? "" : "s") in \(outdir), "
                 + "against the checkpoint of \(origin) at size \(size) (\(outdir)/checkpoint)")
    }
}
