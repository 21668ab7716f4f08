/// Appending a buffer to a work file.
extension System {
    /// Appends all of `bytes` to the file at `path`: a new file (0600, never
    /// through a symlink) when `create`, else an existing one. Opened, written
    /// and closed; no fsync (work files and parts are synced, or renamed into
    /// place, by their owner).
    func append(_ bytes: [UInt8], toFile path: String, create: Bool) throws(SystemCallError) {
        let fd = try open(path, create ? .writeCreateNew : .appendExisting)
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { raw in
            Result { () throws(PartialWriteError) in try writeAll(fd, raw) }
        }
        if case .failure(let error) = written { throw error.cause }
    }
}
