extension System {
    /// fsyncs the directory holding `path`, so a name just created or renamed
    /// there survives a crash. A file system that cannot fsync a directory
    /// (EINVAL) is taken as having nothing to sync.
    func syncDirectory(of path: String) throws(SystemCallError) {
        let dfd = try open(LedgerWriter.directory(of: path), .directory)
        defer { close(dfd) }
        do { try fsync(dfd) } catch {
            if error.errno == .invalidArgument { return }  // some file systems cannot fsync a directory
            throw error
        }
    }
}
