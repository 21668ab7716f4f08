import Events

/// Why a ledger operation failed: a code, a message naming the file (and the
/// line or member where there is one), and the underlying cause.
public struct LedgerError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A system call failed (see `cause`).
        case io
        /// An event to append breaks a rule of the format; nothing of its batch was written.
        case invalidEvent = "invalid_event"
        /// The log is damaged (a bad line, a broken chain, a seq gap...): see `problem`.
        case damaged
        /// The batch was written but fsync failed: it may not be on disk. The writer is unusable; reopen.
        case notDurable = "not_durable"
        /// A failed append could not be undone: the log may end in a partial batch. Reopen to recover it.
        case needsRecovery = "needs_recovery"
        /// The writer can no longer append (an earlier fsync or undo failed, or it was closed); reopen.
        case unusable
        /// The file, or its directory, does not exist.
        case notFound = "not_found"
        /// The path is a directory.
        case isDirectory = "is_directory"
        /// The path is a symbolic link; the writer refuses to follow one.
        case symlink
        /// The path is not a regular file (a FIFO, a device, a socket).
        case notRegularFile = "not_regular_file"
        /// The file or directory may not be written (permissions, read-only file system).
        case permission
        /// The file at the path was replaced or removed while the writer had it open.
        case replaced
        /// An event's id is already used (in the log, in its batch, or in another input) by different content.
        case conflictingDuplicate = "conflicting_duplicate"
        /// Lines offered to a replica do not continue its chain, or differ from lines it holds.
        case replicaDiverged = "replica_diverged"
    }

    /// The underlying cause.
    package enum Cause: Sendable, CustomStringConvertible {
        /// A failed system call.
        case system(SystemCallError)
        /// An event that breaks a rule of the format.
        case event(EventError)
        /// The first problem found in a log, as `verify` reports it.
        case problem(LineProblem)

        /// The cause, for a person.
        package var description: String {
            switch self {
            case .system(let e): e.description
            case .event(let e): e.description
            case .problem(let p): p.description
            }
        }
    }

    /// The kind of failure.
    public var code: Code
    /// The log (or side file) concerned.
    public var path: String
    /// What happened, for a person, without the path.
    public var message: String
    /// The underlying cause, when there is one.
    package var cause: Cause?
    /// For `.invalidEvent`: the 0-based position of the refused event in its
    /// batch (so a caller can name its own input line).
    public var eventIndex: Int?

    /// Makes an error.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code; self.path = path; self.message = message
    }

    /// Makes an error with its cause.
    package init(_ code: Code, path: String, _ message: String, cause: Cause?) {
        self.code = code; self.path = path; self.message = message; self.cause = cause
    }

    /// The failed system call, when the cause is one.
    package var systemCall: SystemCallError? {
        if case .system(let e)? = cause { return e }
        return nil
    }

    /// The problem in the log, when the error is `.damaged` (the same text `verify` prints).
    public var problem: LineProblem? {
        if case .problem(let p)? = cause { return p }
        return nil
    }

    /// The kind the error names, as the spec and the docs spell it: the
    /// damaged line's problem (`broken_chain`, `misrouted`), the refused
    /// event's (`invalid_data`), else the code (`replica_diverged`, `not_found`).
    public var kind: String {
        switch cause {
        case .problem(let p)?: p.kind.rawValue
        case .event(let e)?: e.kind.rawValue
        default: code.rawValue
        }
    }

    /// `KIND: message`, or the message alone when it names the kind already
    /// (`line 7: broken_chain: ...`): every refusal says its kind, which scripts match on.
    public var detail: String { LedgerError.names(message, kind) ? message : "\(kind): \(message)" }

    /// `PATH: KIND: message` (``detail`` after the path).
    public var description: String { "\(path): \(detail)" }

    /// Whether `text` holds `word` as a whole word (not inside `snake_case` or another word).
    static func names(_ text: String, _ word: String) -> Bool {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).contains { $0 == word }
    }
}
