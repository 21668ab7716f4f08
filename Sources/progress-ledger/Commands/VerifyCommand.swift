import Ledger

/// `progress-ledger verify LOG`: checks every line and the chain.
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "check every line and the SHA-256 chain of a log; print the head"
    static let help = """
        Checks every line of LOG as the format says: the line itself (blank,
        too long, CR, encoding, JSON, duplicate members), the envelope and the
        event's data, seq numbers, unique ids, and the prev chain.

        On success prints the event count and the head, the seq and SHA-256 of
        the last line, and exits 0. Otherwise prints the FIRST problem as
        'line K: KIND: detail' and exits 1. A torn tail (bytes after the last
        LF, left by a crash) is a warning on stderr; the exit code stays 0.
        Lines erased by 'erase' are redaction stubs: they verify (each keeps
        the erased line's hash, so every link and any earlier head still
        check) and are counted as redacted.

        Kinds: blank_line, line_too_long, line_ending, encoding, not_json,
        duplicate_member, not_object, invalid_envelope, seq_gap, head_mismatch,
        broken_chain, invalid_data, duplicate_id, torn_tail.

        A ledger directory DIR: every learner log is checked so, in parallel on
        all cores, and holds only its learner's events. Prints 'DIR: ok: N
        learners, M events, digest HEX', the directory digest (the SHA-256 of
        the lines 'H64 SEQ SHA256', each learner log's name and head, sorted by
        name), which an auditor keeps like a head; or each damaged learner log
        as 'PATH: line K: KIND: detail' (exit 1). With --user U, only U's
        learner log is checked, as a LOG is.

        With --checkpoint FILE --vkey VKEYFILE, the signed form of
        --expect-head (docs/receipts.md): FILE must be signed by VKEYFILE's
        key (and be ORIGIN's), and the log's first lines, as many as the
        checkpoint's tree size, must have its Merkle root. Otherwise prints
        'FILE: KIND: detail' (key, signature, origin) or 'LOG: KIND: detail'
        (size: the log is shorter; root: it changed, or the checkpoint is of
        another log) and exits 1. Erasures change no root.
        """
    static let expectHead = Option.checked("--expect-head", value: "SEQ:SHA256", help: "also check that line SEQ still hashes to SHA256 "
        + "(a head printed earlier), so nothing up to it has changed", takes: "SEQ:SHA256, a seq and 64 hex digits (seq 0 only with 64 zeros)") { Head(parsing: $0) }
    static let expectDigest = Option.checked("--expect-digest", value: "SHA256", help: "(DIR) also check the directory digest",
                                             takes: "64 hex digits") { SHA256.Digest(hex: $0) }
    static let options: [any OptionSpec] = [expectHead, expectDigest, Receipts.user.conflicting(with: expectDigest),
                                            Receipts.checkpoint.needing(Receipts.vkey), Receipts.vkey.needing(Receipts.checkpoint),
                                            Receipts.expectedOrigin.needing(Receipts.checkpoint)]
    static let usage = [Form("LOG", [.optional([.option(expectHead)]), Receipts.checkedAgainstCheckpoint]),
                        Form("DIR", options: [expectDigest]),
                        Form("DIR", [.option(Receipts.user), Receipts.checkedAgainstCheckpoint])]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG path")
        if let directory = try LogInput.directory(path) {
            if args[Receipts.user] != nil { return try verifyLog(try Receipts.tree(path, user: args[Receipts.user]), args, io) }
            if args[Receipts.checkpoint] != nil { throw CLIError.usage("--checkpoint with a ledger directory needs --user U (a checkpoint is of one learner log)") }
            return try verifyDirectory(directory, args, io)
        }
        if args[Self.expectDigest] != nil { throw CLIError.usage("--expect-digest is for a ledger directory; \(path) is a log (use --expect-head)") }
        if args[Receipts.checkpoint] != nil || args[Receipts.user] != nil {
            return try verifyLog(try Receipts.tree(path, user: args[Receipts.user]), args, io)   // --user with a LOG: a usage error
        }
        let expected = args[Self.expectHead]
        return finish(try verify(path: path, expectHead: expected), expected, checked: nil, io)
    }

    /// `verify LOG --checkpoint`, or a learner log of a ledger directory (`--user U`): one read with the tree.
    static func verifyLog(_ tree: LogTree, _ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let expected = args[Self.expectHead]
        if expected != nil, args[Receipts.user] != nil { throw CLIError.usage("--expect-head is for a log; a learner log is checked with --checkpoint") }
        // The checkpoint is opened and its signature checked before the log is read.
        var signed: (checkpoint: Checkpoint, path: String, key: String)? = nil
        if let checkpointPath = args[Receipts.checkpoint] {
            let vkeyPath = try args.required(Receipts.vkey)
            do throws(ReceiptError) {
                let verifier = try NoteVerifier(contentsOf: vkeyPath)
                let checkpoint = try SignedCheckpoint(contentsOf: checkpointPath)
                try checkpoint.verify(with: verifier, origin: args[Receipts.expectedOrigin], path: checkpointPath)
                signed = (checkpoint.checkpoint, checkpointPath, verifier.label)
            } catch {
                io.line(error.description)
                return ExitCode.failure
            }
        }
        let report: VerifyReport, mismatch: ReceiptError?
        do throws(LedgerError) {
            if let signed {
                (report, mismatch) = try tree.verify(expectHead: expected, against: signed.checkpoint, checkpointPath: signed.path)
            } else {
                (report, mismatch) = (try tree.read { _ in }, nil)
            }
        } catch {
            guard error.code == .damaged else { throw CLIError.failure(error.description) }
            io.line(error.description)   // a learner log's problem, as verify DIR prints it
            return ExitCode.failure
        }
        if let mismatch {
            for warning in report.warnings { io.error("\(tree.path): warning: \(warning)") }
            io.line(mismatch.description)
            return ExitCode.failure
        }
        return finish(report, expected, checked: signed.map { "; its first \($0.checkpoint.size) lines match the checkpoint \($0.path) "
                                                                + "(\($0.checkpoint.origin), signed by \($0.key))" }, io)
    }

    /// Prints verify's report (and what else was checked) and returns the exit code.
    private static func finish(_ report: VerifyReport, _ expected: Head?, checked: String?, _ io: Terminal) -> Int32 {
        for warning in report.warnings { io.error("\(report.path): warning: \(warning)") }
        if let problem = report.problem {
            io.line("\(report.path): \(problem)")
            if let note = InputFileHint.note(path: report.path, line: problem.line) { io.error("progress-ledger verify: \(note)") }
            return ExitCode.failure
        }
        var text = "\(report.path): ok: " + LogInput.describe(report.summary)
        if let expected { text += "; line \(expected.seq) matches the expected head" }
        io.line(text + (checked ?? ""))
        return ExitCode.ok
    }

    /// `verify DIR`: every learner log, the counts and the directory digest.
    static func verifyDirectory(_ directory: LedgerDirectory, _ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        if args[Self.expectHead] != nil { throw CLIError.usage("--expect-head is for a log; \(directory.path) is a ledger directory (use --expect-digest)") }
        let expected = args[Self.expectDigest]
        let report = try directory.verify(expectDigest: expected)
        for learner in report.noted {
            for warning in learner.summary?.warnings ?? [] { io.error("\(learner.log.path): warning: \(warning)") }
        }
        for learner in report.problems { io.line(learner.problem ?? "") }
        guard report.problems.isEmpty, let digest = report.digest else {
            io.line("\(directory.path): \(report.problems.count) of \(report.learnerCount) learner logs damaged")
            return ExitCode.failure
        }
        let learners = report.learnerCount
        var text = "\(directory.path): ok: \(learners) learner\(learners == 1 ? "" : "s"), \(report.events) event\(report.events == 1 ? "" : "s"), digest \(digest.hex)"
        if let expected {
            guard !report.digestMismatch else {
                io.line("\(directory.path): digest_mismatch: the directory digest is \(digest.hex), expected \(expected.hex)")
                return ExitCode.failure
            }
            text += "; matches the expected digest"
        }
        io.line(text)
        return ExitCode.ok
    }
}
