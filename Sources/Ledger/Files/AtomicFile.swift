/// Writing a whole file so that a reader sees the old file or the new one,
/// never a mix: the bytes go to a new file beside the target, which is
/// fsync'd and renamed over it, then the directory is fsync'd (without the
/// two fsyncs when `durable` is false: for a cache that is checked whole
/// when it is read, like a snapshot).
///
/// The new file is created with `O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600
/// (whatever the umask), named `PATH.tmp-<pid>` (`-1`, `-2`... added if
/// taken): an existing file or a planted symlink is never opened. `rename`
/// replaces the name `PATH` itself, never what a symlink there points to.
/// Callers check what is at `PATH` before (a snapshot only replaces a
/// snapshot, an output file never replaces a log).
///
/// On a failure before the rename nothing at `PATH` changes and the new file
/// is removed; the error names the call and the file.
struct AtomicFile {
    /// What the file is, in messages: "snapshot" gives "creating the new snapshot file".
    var noun: String
    var system: System
    /// Whether the new file and its directory entry are fsync'd.
    var durable = true

    /// The most bytes gathered into one `write`.
    static let writeSize = 1 << 20

    /// Writes the bytes `contents` hands to its sink (in as many pieces as it
    /// likes, gathered into writes of up to ``writeSize`` bytes) to `path`,
    /// replacing what is there.
    func replace(
        _ path: String,
        _ contents: ((UnsafeRawBufferPointer) throws(PartialWriteError) -> Void) throws(PartialWriteError) -> Void
    ) throws(LedgerError) {
        let temporary = try writeTemporary(beside: path, contents)
        do {
            try system.rename(temporary, to: path)
        } catch {
            _ = try? system.unlink(temporary)
            throw LedgerError(error, path: path, doing: "putting the new \(noun) in place (rename from \(temporary))")
        }
        guard durable else { return }
        do { try system.syncDirectory(of: path) } catch {
            throw LedgerError(.io, error, path: LedgerWriter.directory(of: path),
                              "the \(noun) \(path) was written, but making its directory entry durable failed")
        }
    }

    /// What is at `path` now, before it is replaced.
    enum Existing: Equatable {
        /// Nothing: the name is free.
        case none
        /// A regular file: its first bytes (at most the number asked for; none
        /// if it is empty) and whether its mode lets its owner write it.
        case regular(head: [UInt8], ownerWritable: Bool)
        case symlink, directory, other
    }

    /// Looks at `path` without following a symlink; for a regular file, reads its first `count` bytes.
    func existing(_ path: String, head count: Int) throws(LedgerError) -> Existing {
        let status: FileStatus
        do { status = try system.lstat(path) } catch {
            if error.errno == .noEntry { return .none }
            throw LedgerError(error, path: path, doing: "looking at the \(noun) file")
        }
        switch status.kind {
        case .regular: break
        case .symlink: return .symlink
        case .directory: return .directory
        case .other: return .other
        }
        guard status.size > 0, count > 0 else { return .regular(head: [], ownerWritable: status.ownerWritable) }
        var head = [UInt8](repeating: 0, count: min(count, status.size))
        let fd: CInt
        do { fd = try system.open(path, .read) } catch { throw LedgerError(error, path: path, doing: "opening the old \(noun)") }
        defer { system.close(fd) }
        let read = head.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemCallError) -> Int in try system.pread(fd, into: buffer, at: 0) }
        }
        let n: Int
        do { n = try read.get() } catch {
            throw LedgerError(error, path: path, doing: "reading the old \(noun)")
        }
        head.removeSubrange(n...)
        return .regular(head: head, ownerWritable: status.ownerWritable)
    }

    /// Writes the new file beside `path` (and fsyncs it when `durable`); returns its name.
    private func writeTemporary(
        beside path: String,
        _ contents: ((UnsafeRawBufferPointer) throws(PartialWriteError) -> Void) throws(PartialWriteError) -> Void
    ) throws(LedgerError) -> String {
        let base = "\(path).tmp-\(System.processID())"
        var name = base
        var fd: CInt = -1
        for k in 0..<100 {
            name = k == 0 ? base : "\(base)-\(k)"
            do {
                fd = try system.open(name, .writeCreateNew)
                break
            } catch where error.errno == .exists {
                continue
            } catch {
                throw LedgerError(error, path: path, doing: "creating the new \(noun) file beside it (\(name))")
            }
        }
        guard fd >= 0 else { throw LedgerError(.io, path: base, "could not find a free name for the new \(noun) file") }
        do throws(LedgerError) {
            var done = 0
            let out = fd
            var pending: [UInt8] = []
            func send(_ raw: UnsafeRawBufferPointer) throws(PartialWriteError) {
                do throws(PartialWriteError) { try system.writeAll(out, raw) } catch {
                    throw PartialWriteError(written: done + error.written, cause: error.cause)
                }
                done += raw.count
            }
            func flush() throws(PartialWriteError) {
                guard !pending.isEmpty else { return }
                let result = pending.withUnsafeBytes { raw in Result { () throws(PartialWriteError) in try send(raw) } }
                try result.get()
                pending.removeAll(keepingCapacity: true)
            }
            do throws(PartialWriteError) {
                // Small pieces are gathered; a piece of a whole write's size or more goes out as it is (no copy).
                try contents { (piece) throws(PartialWriteError) in
                    if pending.count + piece.count > AtomicFile.writeSize { try flush() }
                    if piece.count >= AtomicFile.writeSize { try send(piece) } else { pending.append(contentsOf: piece) }
                }
                try flush()
            } catch {
                throw LedgerError(.io, error.cause, path: name, "writing the new \(noun) failed after \(error.written) bytes")
            }
            if durable {
                do { try system.fsync(fd) } catch { throw LedgerError(.io, error, path: name, "making the new \(noun) durable failed") }
            }
            let closing = system.close(fd)
            fd = -1
            if let closing { throw LedgerError(.io, closing, path: name, "closing the new \(noun) failed") }
        } catch {
            if fd >= 0 { system.close(fd) }
            _ = try? system.unlink(name)
            throw error
        }
        return name
    }
}
