import Events

/// The records a read handed over, saved as the bytes of their lines with
/// the place in the log the read stopped at, so that a later read checks that
/// the log still extends that place and reads only the new tail
/// (``LogReader/Options/snapshot``).
///
/// The Ledger knows nothing of what the caller folds: a snapshot holds log
/// lines, decoded again by the one line decoder when loaded, and `key` says
/// which were selected (the user). A snapshot is used only with the same key,
/// for the same log file, and only when the line where it stopped still
/// hashes to its head.
///
/// The file is written atomically (a new file beside it, renamed over the old
/// one) with mode 0600, and carries a format version and a checksum: a
/// damaged, foreign or newer file is refused (``SnapshotRejection``), never
/// trusted. It is a cache, so it is not fsync'd (see ``save(to:)``).
struct Snapshot: Sendable {
    /// The version of the file format this code writes and reads (1 held a
    /// fold's state; 2 holds the selected lines).
    static let formatVersion = 2

    /// Where in which log the read stopped.
    var resumePoint: ResumePoint
    /// Which records were selected: ``key(user:)``.
    var key: String
    /// The lines whose records were handed over, each ended by its LF, in log order.
    var lines: [UInt8]
    /// The records of `lines`, when the snapshot was loaded from a file (empty otherwise).
    var records: [Record] = []

    /// Makes a snapshot of `lines`, selected up to `resumePoint`.
    init(resumePoint: ResumePoint, key: String, lines: [UInt8]) {
        self.resumePoint = resumePoint; self.key = key; self.lines = lines
    }

    /// The key of a read of `user`'s records (every record: nil).
    static func key(user: String?) -> String { user.map { "user " + $0 } ?? "every user" }

    /// The largest snapshot file read: 1 GiB.
    static let sizeLimit = 1 << 30

    /// Reads the snapshot at `path` made with `key`, and decodes its lines.
    ///
    /// Refuses (``SnapshotRejection``) a missing or unreadable file, a file
    /// that is not a snapshot or is damaged (a line that does not decode
    /// too), one of another format version, and one made with another key.
    /// Whether it matches a log is checked when reading the log.
    static func load(from path: String, key: String, system: System = System()) throws(SnapshotRejection) -> Snapshot {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(path, limit: sizeLimit, system: system)
        } catch {
            if error.code == .notFound { throw SnapshotRejection(.missing, "it does not exist yet") }
            throw SnapshotRejection(.unreadable, "it cannot be read: \(error.message)")
        }
        var snapshot = try Snapshot(decoding: bytes)
        guard snapshot.key.utf8.elementsEqual(key.utf8) else {
            throw SnapshotRejection(.otherFold, "it was made for \(snapshot.key), not \(key)")
        }
        snapshot.records = try decodeLines(snapshot.lines)
        return snapshot
    }

    /// The records of LF-ended lines, decoded as a log's lines are.
    private static func decodeLines(_ lines: [UInt8]) throws(SnapshotRejection) -> [Record] {
        var records: [Record] = []
        var failure: SnapshotRejection? = nil
        lines.withUnsafeBytes { raw in
            var start = 0, number = 1
            while start < raw.count, let lf = System.firstIndex(of: 0x0A, in: raw, from: start) {
                let line = ScannedLine(number: number, offset: start, length: lf - start,
                                       bytes: UnsafeRawBufferPointer(rebasing: raw[start..<lf]))
                switch line.decode() {
                case .success(let record): records.append(record)
                case .failure(let error):
                    failure = SnapshotRejection(.garbled, "it is damaged: its line \(number) does not decode (\(error))")
                    return
                }
                start = lf + 1; number += 1
            }
            if start != raw.count { failure = SnapshotRejection(.garbled, "it is damaged: its last line has no LF") }
        }
        if let failure { throw failure }
        return records
    }

    /// Writes the snapshot to `path` atomically, replacing an older snapshot there.
    ///
    /// A new file (mode 0600, created exclusively) is written beside `path`
    /// and renamed over `path`. On a failure before the rename nothing at
    /// `path` changes and the new file is removed. Refuses to replace anything
    /// that is not a snapshot (a log, a report...), a symbolic link, or a
    /// directory.
    ///
    /// Nothing is fsync'd: a snapshot is a cache that every load checks whole
    /// (its checksum covers every byte). A process killed at any point leaves
    /// the old snapshot or the new one; a power loss may leave a file that
    /// fails its checksum, which the next load refuses (`garbled`) before a
    /// full read, and that read saves it again. The two fsyncs would cost more
    /// than the rest of a warm start.
    func save(to path: String, system: System = System()) throws(LedgerError) {
        let file = AtomicFile(noun: "snapshot", system: system, durable: false)
        try Snapshot.checkReplaceable(path, file)
        try file.replace(path) { (sink) throws(PartialWriteError) in try write(sink) }
    }

    /// Refuses to replace anything at `path` but a snapshot (or an empty file).
    private static func checkReplaceable(_ path: String, _ file: AtomicFile) throws(LedgerError) {
        switch try file.existing(path, head: magic.count) {
        case .none, .regular(head: [], _): return
        case .regular(let head, _) where head == magic: return
        case .regular:
            throw LedgerError(.permission, path: path,
                              "exists and is not a snapshot, so it is not replaced (give a new file name, or remove it)")
        case .symlink: throw LedgerError(.symlink, path: path, "is a symbolic link; a snapshot is never written through a link")
        case .directory: throw LedgerError(.isDirectory, path: path, "is a directory, not a snapshot file")
        case .other: throw LedgerError(.notRegularFile, path: path, "is not a regular file; a snapshot is not written there")
        }
    }
}

extension Snapshot: Equatable {
    /// The same resume point, key and lines (the decoded records follow from the lines).
    static func == (a: Snapshot, b: Snapshot) -> Bool {
        a.resumePoint == b.resumePoint && a.key == b.key && a.lines == b.lines
    }
}
