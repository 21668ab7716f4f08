import Events

/// A whole log read into memory after it verified: what `merge`, `pending`,
/// `pull` and the raw export work on (a learner's log, not a server's whole fleet).
package struct VerifiedLog: Sendable {
    /// One line of the log.
    package struct Line: Sendable {
        /// Its line number (= its seq).
        package var number: Int
        /// Its bytes, without the LF.
        package var bytes: [UInt8]
        /// What it holds.
        package var record: Record
    }

    /// The log's path.
    package let path: String
    /// Every line, in order (the lines that verified; a torn tail is not a
    /// line), but redaction stubs.
    package var lines: [Line] = []
    /// How many redaction stubs (`RedactionStub`) the log holds: lines of
    /// erased events, which hold no event (no id, no user) and are left out
    /// of ``lines``.
    package var redactedLines = 0
    /// The verified head: the last line's seq and its digest as the chain
    /// reads it (a stub's `redacted`): what a line appended next follows.
    package var head = Head.empty

    /// Reads the log at `path`: verified first (a damaged log throws `.damaged`
    /// with verify's message), then its lines up to the verified head (lines
    /// appended meanwhile are left for the next read), redaction stubs
    /// counted and left out. `missingIsEmpty`: a missing file reads as an
    /// empty log.
    package static func load(_ path: String, missingIsEmpty: Bool = false) throws(LedgerError) -> VerifiedLog {
        var log = VerifiedLog(path: path)
        log.head = try log.forEachVerifiedLine(missingIsEmpty: missingIsEmpty) { (line) throws(LedgerError) in
            if RedactionStub.parts(line.bytes) != nil {
                log.redactedLines += 1
                return
            }
            log.lines.append(Line(number: line.number, bytes: line.copyBytes(), record: try line.record.get(path: path, line: line.number)))
        }
        return log
    }

    private init(path: String) { self.path = path }

    /// Calls `body` with each line of the log that `verify` accepts, after it did.
    private func forEachVerifiedLine(missingIsEmpty: Bool, _ body: (LogLine) throws(LedgerError) -> Void) throws(LedgerError) -> Head {
        try VerifiedLog.forEachLine(of: path, missingIsEmpty: missingIsEmpty, body)
    }

    /// Verifies the log at `path`, then calls `body` with each line up to its
    /// verified head, which it returns (a missing file when `missingIsEmpty`: seq 0).
    @discardableResult
    package static func forEachLine(of path: String, missingIsEmpty: Bool = false,
                                    _ body: (LogLine) throws(LedgerError) -> Void) throws(LedgerError) -> Head {
        let reader = LogReader(path: path)
        let report: VerifyReport
        do { report = try reader.verify() } catch {
            if missingIsEmpty, error.code == .notFound { return .empty }
            throw error
        }
        if let problem = report.problem { throw LedgerError(damaged: problem, path: path) }
        // Every verified line: events, redaction stubs and newer-version lines alike (the head's seq).
        let count = report.head.seq
        try reader.forEachLine { (line) throws(LedgerError) in
            guard line.number <= count else { return }
            try body(line)
        }
        return report.head
    }
}

extension Result where Success == Record, Failure == EventError {
    /// The record, or a `.damaged` error naming the file and line (a line that verified but no longer decodes was rewritten meanwhile).
    func get(path: String, line: Int) throws(LedgerError) -> Record {
        switch self {
        case .success(let r): return r
        case .failure(let e):
            throw LedgerError(damaged: LineProblem(line: line, kind: .format(e.kind), e.message + " (the log changed while it was read; run verify)"),
                              path: path)
        }
    }
}
