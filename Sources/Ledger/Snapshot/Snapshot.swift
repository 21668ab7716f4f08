import Events

/// A fold's state saved with the place in the log it was computed at, so
/// that a later read checks that the log still extends that place and folds
/// only the new tail.
///
/// The Ledger does not know what was folded: the state is opaque `payload`
/// bytes, and `key` says what was folded and how (for `progress-ledger
/// state`, `StateOptions.foldKey`: the user, as-of and streak mode). A
/// snapshot is used only with the same key, for the same log file, and only
/// when the line where it stopped still hashes to its head.
///
/// ```swift
/// var projector = LearnerProjector(options: options)
/// var checkpoint: LogCheckpoint? = nil
/// if let saved = try? Snapshot.load(from: snapshotPath, key: options.foldKey),
///    let restored = try? LearnerProjector(snapshot: saved.payload, options: options) {
///     projector = restored; checkpoint = saved.checkpoint
/// }
/// let reader = LogReader(path: logPath)
/// var read = try reader.forEachRecord(after: checkpoint) { projector.apply($0) }
/// if case .failure(let why) = read {                 // the snapshot does not match: read everything
///     print("snapshot ignored: \(why)")
///     projector = LearnerProjector(options: options)
///     read = try reader.forEachRecord(after: nil) { projector.apply($0) }
/// }
/// if case .success(let done) = read {
///     try Snapshot(checkpoint: done.checkpoint, key: options.foldKey,
///                  payload: projector.snapshotBytes()).save(to: snapshotPath)
/// }
/// ```
///
/// The file is written atomically (a new file beside it, renamed over the old
/// one) with mode 0600, and carries a format version and a checksum: a
/// damaged, foreign or newer file is refused (``SnapshotRejection``), never
/// trusted. It is a cache, so it is not fsync'd (see ``save(to:)``).
public struct Snapshot: Sendable, Hashable {
    /// The version of the file format this code writes and reads.
    public static let formatVersion = 1

    /// Where in which log the state was computed.
    public var checkpoint: LogCheckpoint
    /// What was folded and how, as the caller describes it; a snapshot is used only with the same key.
    public var key: String
    /// The folded state, encoded by the caller.
    public var payload: [UInt8]

    /// Makes a snapshot of `payload`, the state folded up to `checkpoint`.
    public init(checkpoint: LogCheckpoint, key: String, payload: [UInt8]) {
        self.checkpoint = checkpoint; self.key = key; self.payload = payload
    }

    /// The largest snapshot file read: 1 GiB.
    static let sizeLimit = 1 << 30

    /// Reads the snapshot at `path` made with `key`.
    ///
    /// Refuses (``SnapshotRejection``) a missing or unreadable file, a file
    /// that is not a snapshot or is damaged, one of another format version,
    /// and one made with another key. Whether it matches a log is checked
    /// when reading the log (``LogReader/forEachRecord(after:progress:_:)``).
    public static func load(from path: String, key: String) throws(SnapshotRejection) -> Snapshot {
        try load(from: path, key: key, system: System())
    }

    static func load(from path: String, key: String, system: System) throws(SnapshotRejection) -> Snapshot {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path, system: system)
        } catch {
            if error.code == .notFound { throw SnapshotRejection(.missing, "it does not exist yet") }
            throw SnapshotRejection(.unreadable, "it cannot be read: \(error.message)")
        }
        let snapshot = try Snapshot(decoding: bytes)
        guard snapshot.key.utf8.elementsEqual(key.utf8) else {
            throw SnapshotRejection(.otherFold, "it was made for \(snapshot.key), not \(key)")
        }
        return snapshot
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
    public func save(to path: String) throws(LedgerError) {
        try save(to: path, system: System())
    }

    func save(to path: String, system: System) throws(LedgerError) {
        let file = AtomicFile(noun: "snapshot", system: system, durable: false)
        try Snapshot.checkReplaceable(path, file)
        try file.replace(path) { (sink) throws(PartialWriteError) in try write(sink) }
    }

    /// The whole file at `path` (a regular file of at most ``sizeLimit`` bytes), read into one buffer.
    private static func readFile(_ path: String, system: System) throws(LedgerError) -> [UInt8] {
        let fd: CInt
        do { fd = try system.open(path, .read) } catch { throw LedgerError(error, path: path, doing: "opening the file") }
        defer { system.close(fd) }
        let status: FileStatus
        do { status = try system.fstat(fd) } catch { throw LedgerError(error, path: path, doing: "reading the file's status") }
        switch status.kind {
        case .regular: break
        case .directory: throw LedgerError(.isDirectory, path: path, "is a directory, not a file")
        default: throw LedgerError(.notRegularFile, path: path, "is not a regular file")
        }
        guard status.size <= sizeLimit else { throw LedgerError(.io, path: path, "is \(status.size) bytes; at most \(sizeLimit) are read") }
        var failure: LedgerError? = nil
        // Not zero-filled first: a snapshot can be megabytes, read at every warm start.
        let bytes = [UInt8](unsafeUninitializedCapacity: status.size) { buffer, initialized in
            var done = 0
            while done < status.size {
                let n: Int
                do throws(SystemCallError) {
                    n = try system.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[done...]), at: done)
                } catch {
                    failure = LedgerError(error, path: path, doing: "reading the file")
                    break
                }
                if n == 0 { break }
                done += n
            }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
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
