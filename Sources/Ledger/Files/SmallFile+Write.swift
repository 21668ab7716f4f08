/// Writing a command's whole output file (a report, the demo's page).
extension SmallFile {
    /// Writes `bytes` to `path` atomically, mode 0600, never through a symlink.
    ///
    /// The bytes go to a new file beside `path` (`PATH.tmp-<pid>`, created
    /// exclusively with mode 0600 whatever the umask, never following a
    /// link), which is fsync'd and renamed over `path`; then the directory
    /// is fsync'd. A reader sees the old file or the whole new one. On a
    /// failure nothing at `path` changes and the new file is removed.
    ///
    /// A regular file at `path` is replaced (the new file is 0600 whatever the
    /// old one's mode was), except a ledger log or a snapshot, so a mistyped
    /// output name never destroys the log, and a file whose mode has no
    /// owner-write bit (a `chmod a-w` is respected even when run as root):
    /// those are refused (`.permission`). A symbolic link (`.symlink`), a directory (`.isDirectory`) or
    /// anything else (`.notRegularFile`) at `path` is refused and left as it is.
    public static func write(_ bytes: [UInt8], to path: String) throws(LedgerError) {
        try write(bytes, to: path, system: System())
    }

    static func write(_ bytes: [UInt8], to path: String, system: System) throws(LedgerError) {
        let file = AtomicFile(noun: "output", system: system)
        switch try file.existing(path, head: 8) {
        case .none: break
        case .regular(let head, let ownerWritable):
            if !ownerWritable {
                throw LedgerError(.permission, path: path, "is read-only (its mode has no owner-write bit), so it is not replaced")
            }
            if head.starts(with: Array(#"{"v":"#.utf8)) {
                throw LedgerError(.permission, path: path,
                                  "holds ledger events (it starts like a log line), so it is not replaced (give another file name)")
            }
            if head == Snapshot.magic {
                throw LedgerError(.permission, path: path, "is a snapshot, so it is not replaced (give another file name)")
            }
        case .symlink:
            throw LedgerError(.symlink, path: path, "is a symbolic link; an output file is never written through a link (give the real path)")
        case .directory:
            throw LedgerError(.isDirectory, path: path, "is a directory, not a file")
        case .other:
            throw LedgerError(.notRegularFile, path: path, "is not a regular file; an output file is not written there")
        }
        try file.replace(path) { (sink) throws(PartialWriteError) in
            let written = bytes.withUnsafeBytes { buffer in
                Result { () throws(PartialWriteError) in try sink(buffer) }
            }
            try written.get()
        }
    }
}

/// Writing a new file that must not replace anything (a signing key).
extension SmallFile {
    /// Writes `bytes` to a new file at `path`, mode 0600 whatever the umask:
    /// created exclusively (never through a symlink), written, fsync'd, then
    /// its directory fsync'd. Anything already at `path` is refused (`.io`,
    /// "already exists") and left as it is; on a failure the new file is removed.
    package static func create(_ bytes: [UInt8], at path: String) throws(LedgerError) {
        let system = System()
        let fd: CInt
        do { fd = try system.open(path, .writeCreateNew) } catch {
            if error.errno == .exists { throw LedgerError(.io, path: path, "already exists; it is never replaced (give a new file name)") }
            throw LedgerError(error, path: path, doing: "creating the file")
        }
        var open = true
        do throws(LedgerError) {
            let written = bytes.withUnsafeBytes { raw in Result { () throws(PartialWriteError) in try system.writeAll(fd, raw) } }
            if case .failure(let error) = written { throw LedgerError(.io, error.cause, path: path, "writing the file failed") }
            do { try system.fsync(fd) } catch { throw LedgerError(.io, error, path: path, "making the file durable failed") }
            open = false
            if let failure = system.close(fd) { throw LedgerError(.io, failure, path: path, "closing the file failed") }
        } catch {
            if open { system.close(fd) }
            _ = try? system.unlink(path)
            throw error
        }
        do { try system.syncDirectory(of: path) } catch {
            throw LedgerError(.io, error, path: LedgerWriter.directory(of: path), "the file \(path) was written, but making its directory entry durable failed")
        }
    }
}
