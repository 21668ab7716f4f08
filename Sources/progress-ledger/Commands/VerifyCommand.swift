import Ledger

/// `progress-ledger verify LOG`: checks every line and the chain.
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "check every line and the SHA-256 chain of a log; print the head"
    static let options: [OptionSpec] = [.value("--expect-head")]
    static let help = """
        LOG [--expect-head SEQ:SHA256]

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

        Options:
          --expect-head SEQ:SHA256   also check that line SEQ still hashes to
                                     SHA256 (a head printed earlier), so nothing
                                     up to it has changed
          -h, --help                 show this help
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG path")
        var expected: Head? = nil
        if let text = args.value("--expect-head") {
            guard let head = Head(parsing: text) else {
                throw CLIError.usage("--expect-head takes SEQ:SHA256, a seq from 1 and 64 hex digits (got '\(text)')")
            }
            expected = head
        }
        let report = try verify(path: path, expectHead: expected)
        for warning in report.warnings { io.error("\(path): warning: \(warning)") }
        if let problem = report.problem {
            io.line("\(path): \(problem)")
            return ExitCode.failure
        }
        var text = "\(path): ok: \(report.events) event\(report.events == 1 ? "" : "s")"
        let newer = report.summary.newerVersionLines
        if newer > 0 { text += " (\(newer) of a newer format version, kept unread)" }
        let redacted = report.summary.redactedLines
        if redacted > 0 { text += ", \(redacted) redacted (erased; their hashes kept)" }
        text += ", head \(report.head)"
        if let expected { text += "; line \(expected.seq) matches the expected head" }
        io.line(text)
        return ExitCode.ok
    }
}
