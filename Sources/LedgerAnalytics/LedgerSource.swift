import Ledger

/// What a report, or a fold over every learner, reads: one or more logs, or
/// one ledger directory.
///
/// ```swift
/// let source = try LedgerSource(paths: ["jan.log", "feb.log"])
/// let report = try source.report(from: nil, to: nil) { warning in print(warning) }
/// let items = try source.items(from: nil, to: nil)          // question analysis
/// try source.forEachRecord { record in print(record.id) }   // every learner's records
/// ```
public enum LedgerSource: Sendable {
    /// Logs, read in this order, each checked on its own as `verify` checks it.
    case logs([String])
    /// A ledger directory: its learner logs, each holding one learner's events.
    case directory(LedgerDirectory)

    /// `paths` as a command takes them: the ledger directory when there is
    /// one path and it is one (it holds `ledger.json`), else logs.
    ///
    /// Throws when the directory's manifest cannot be read.
    public init(paths: [String]) throws(LedgerError) {
        if paths.count == 1, LedgerDirectory.isDirectory(paths[0]) {
            self = .directory(try LedgerDirectory(opening: paths[0]))
        } else {
            self = .logs(paths)
        }
    }

    /// The logs read in turn: the logs, or the directory's learner logs in
    /// name order; with `user`, only that learner's log of a directory, which
    /// must exist (a `.notFound` error naming the directory otherwise).
    package func logs(user: String? = nil) throws(LedgerError) -> [String] {
        switch self {
        case .logs(let paths):
            return paths
        case .directory(let directory):
            guard let user else { return try directory.learnerLogs().map(\.path) }
            return [try directory.existingLearnerLog(user: user).path]
        }
    }
}

/// Something a read noticed that does not stop it, for the user to see.
public enum ReadWarning: Sendable, Hashable, CustomStringConvertible {
    /// Bytes after the last LF of the log (or learner log) at `path`, left by
    /// an append that never completed: not read.
    case tornTail(path: String, TornTail)
    /// The event read at `place` (`PATH:SEQ`) has an id already read at
    /// `earlier` with different content: counted there only.
    case conflictingID(id: String, place: String, earlier: String)

    /// `PATH: warning: line K: torn_tail: ...` (as `verify` prints it), or
    /// `warning: PATH:SEQ: id "ID" was read at PATH:SEQ with different content; counted there only`.
    public var description: String {
        switch self {
        case .tornTail(let path, let tail):
            "\(path): warning: \(tail.warning)"
        case .conflictingID(let id, let place, let earlier):
            "warning: \(place): id \"\(id)\" was read at \(earlier) with different content; counted there only"
        }
    }
}

/// Called as a log is read, with its path, the bytes read so far and its size
/// when the read started (for a progress display).
public typealias ReadProgress = (_ path: String, _ bytesRead: Int, _ totalBytes: Int) -> Void
