import Events

/// A ledger directory: one ordinary v1 log per learner, for a server with
/// many learners (docs/format.md, "Ledger directories").
///
/// ```
/// DIR/ledger.json                  the manifest (format, version, layout, source head)
/// DIR/learners/HH/H64.log          one learner's log
/// ```
///
/// `H64` is the lowercase hex SHA-256 of the user id's UTF-8 bytes and `HH`
/// its first two characters: no user id appears in a file name. Each learner
/// log has its own lock, chain and head, so it is appended, verified, synced
/// and handed over on its own with ``LedgerWriter`` and ``LogReader``.
public struct LedgerDirectory: Sendable {
    /// The directory's path.
    public let path: String
    /// The head of the log it was split from (`split`), nil otherwise.
    public let sourceHead: Head?

    /// The manifest's file name.
    public static let manifestName = "ledger.json"
    /// The manifest's `format`.
    public static let formatName = "progress-ledger-directory"
    /// The manifest's `version`.
    public static let formatVersion = 1
    /// The manifest's `layout`.
    public static let layout = "learners/HH/H64.log"

    /// The file name (without `.log`) of a user's learner log: the lowercase
    /// hex SHA-256 of the id's UTF-8 bytes.
    public static func learnerName(user: String) -> String {
        SHA256.hash(Array(user.utf8)).hex
    }

    /// The learner log of `user` (it may not exist yet).
    public func learnerPath(user: String) -> String { learnerPath(name: Self.learnerName(user: user)) }

    /// The learner log named `name` (an `H64`).
    public func learnerPath(name: String) -> String { "\(path)/learners/\(name.prefix(2))/\(name).log" }

    /// Whether `path` is a ledger directory: a directory holding `ledger.json`.
    public static func isDirectory(_ path: String) -> Bool {
        let system = System()
        guard (try? system.lstat(path))?.kind == .directory else { return false }
        return (try? system.lstat("\(path)/\(manifestName)"))?.kind == .regular
    }

    /// Opens the ledger directory at `path`: reads and checks its manifest.
    public init(opening path: String) throws(LedgerError) {
        let manifestPath = "\(path)/\(Self.manifestName)"
        let bytes = try SmallFile.read(manifestPath, limit: 64 << 10)
        let manifest = try Manifest(parsing: bytes, path: manifestPath)
        self.path = path
        self.sourceHead = manifest.sourceHead
    }

    init(path: String, sourceHead: Head?) { self.path = path; self.sourceHead = sourceHead }

    /// Makes a new, empty ledger directory at `path` (which must not exist;
    /// its parent must): the folders, then the manifest, written last, so a
    /// folder without `ledger.json` is never taken for a ledger.
    /// `sourceHead` is the head of the log it is split from.
    ///
    /// For `split`, call ``prepare(at:)`` first, write the learner logs, then
    /// ``finish(at:sourceHead:)``; a crash in between leaves no manifest.
    public static func create(at path: String, sourceHead: Head? = nil) throws(LedgerError) -> LedgerDirectory {
        try prepare(at: path)
        return try finish(at: path, sourceHead: sourceHead)
    }

    /// Makes the folders of a new ledger directory at `path` (refused if
    /// `path` exists), without the manifest.
    public static func prepare(at path: String) throws(LedgerError) {
        let system = System()
        if (try? system.lstat(path)) != nil {
            throw LedgerError(.io, path: path, "already exists; give a new directory name")
        }
        do {
            try system.mkdir(path)
            try system.mkdir("\(path)/learners")
        } catch {
            throw LedgerError(error, path: path, doing: "creating the ledger directory")
        }
    }

    /// Writes the manifest of the directory prepared at `path` (whole, mode 0600).
    public static func finish(at path: String, sourceHead: Head?) throws(LedgerError) -> LedgerDirectory {
        let manifest = Manifest(sourceHead: sourceHead)
        try SmallFile.write(manifest.bytes, to: "\(path)/\(manifestName)")
        return LedgerDirectory(path: path, sourceHead: sourceHead)
    }

    /// Makes the folder `learners/HH` of a learner log if it is missing.
    public func makeFolder(forLearner name: String) throws(LedgerError) {
        let folder = "\(path)/learners/\(name.prefix(2))"
        let system = System()
        if (try? system.lstat(folder))?.kind == .directory { return }
        do { try system.mkdir(folder) } catch {
            if error.errno == .exists { return }   // another appender made it
            throw LedgerError(error, path: folder, doing: "creating the learner folder")
        }
    }

    /// Every learner log, sorted by name (`H64`). Files that are not
    /// `HH/H64.log` (`.lock`, side files, other names) are not learner logs.
    public func learnerLogs() throws(LedgerError) -> [LearnerLog] {
        let stream = try LearnerLogStream(self)
        var logs: [LearnerLog] = []
        while let log = try stream.next() { logs.append(log) }
        return logs
    }

    static func isHexDigit(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b >= 97 && b <= 102) }

    /// The directory digest of learner logs' heads: the SHA-256 of the lines
    /// `H64 SEQ SHA256\n`, one per learner log, sorted by `H64`.
    public static func digest(_ heads: [(name: String, head: Head)]) -> SHA256.Digest {
        var hasher = SHA256()
        for (name, head) in heads.sorted(by: { $0.name < $1.name }) { hasher.update(digestLine(name: name, head: head)) }
        return hasher.finalize()
    }

    /// One learner log's line of the directory digest: `H64 SEQ SHA256\n`.
    static func digestLine(name: String, head: Head) -> [UInt8] {
        Array("\(name) \(head.seq) \(head.sha256.hex)\n".utf8)
    }
}

/// One learner log of a ``LedgerDirectory``.
public struct LearnerLog: Sendable, Hashable {
    /// Its `H64`: the SHA-256 of the learner's id, lowercase hex.
    public var name: String
    /// Its path.
    public var path: String

    /// Makes one.
    public init(name: String, path: String) { self.name = name; self.path = path }
}

extension LedgerDirectory {
    /// Whether `path` names something (a learner log that exists).
    public static func isFile(_ path: String) -> Bool { (try? System().lstat(path)) != nil }
}

/// The learner logs of a directory in name order, listed one folder `HH` at
/// a time: the folders are listed first (at most 256 names), then each
/// folder's logs when the ones before are handed out. So a walk over the
/// directory holds one folder's names, not the whole directory's
/// (70,000 learners are about 270 logs a folder).
///
/// Not thread-safe: one caller at a time (``LedgerDirectory/foldAny(workers:makePartial:_:)``
/// calls it under its lock).
final class LearnerLogStream {
    private let root: String
    private let system = System()
    /// The folders not listed yet, last first (for `popLast`).
    private var folders: [String]
    /// The listed folder's logs not handed out yet, last first.
    private var logs: [LearnerLog] = []

    /// Lists the folders of `directory`'s `learners/`.
    init(_ directory: LedgerDirectory) throws(LedgerError) {
        root = "\(directory.path)/learners"
        let names: [String]
        do { names = try system.listDirectory(root) } catch {
            throw LedgerError(error, path: root, doing: "listing the learner folders")
        }
        folders = names.filter { $0.utf8.count == 2 && $0.utf8.allSatisfy(LedgerDirectory.isHexDigit) }.sorted(by: >)
    }

    /// The next learner log in name order; nil after the last.
    func next() throws(LedgerError) -> LearnerLog? {
        while logs.isEmpty {
            guard let folder = folders.popLast() else { return nil }
            let names: [String]
            do { names = try system.listDirectory("\(root)/\(folder)") } catch {
                throw LedgerError(error, path: "\(root)/\(folder)", doing: "listing the learner logs")
            }
            for file in names where file.hasSuffix(".log") {
                let name = String(file.dropLast(4))
                guard name.utf8.count == 64, name.hasPrefix(folder), name.utf8.allSatisfy(LedgerDirectory.isHexDigit) else { continue }
                logs.append(LearnerLog(name: name, path: "\(root)/\(folder)/\(file)"))
            }
            logs.sort { $0.name > $1.name }
        }
        return logs.popLast()
    }
}
