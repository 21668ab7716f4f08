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

    /// Makes `path` and any missing parents as `mkdir -p` does (`permissions`
    /// less the umask); a directory already there is fine.
    package func makeDirectories(_ path: String, permissions: UInt32) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            do { try mkdir(prefix, permissions: permissions) } catch {
                guard error.errno == .exists, (try? status(of: prefix))?.kind == .directory else { throw error }
            }
            prefix += "/"
        }
    }
}
