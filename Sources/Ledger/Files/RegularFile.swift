/// Opening a regular file to read, of any size (a 10 GB log as well as a
/// catalog), through the ledger's one system-call layer, with its errors.
enum RegularFile {
    /// Opens `path` read-only, checks it is a regular file, and runs `body`
    /// with its descriptor and status; the errors name a log when `isLog`
    /// (a missing log is `.notFound`, "the log does not exist").
    static func withOpen<T>(_ path: String, isLog: Bool, system: System,
                            _ body: (CInt, FileStatus) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let noun = isLog ? "log" : "file"
        let fd: CInt
        do { fd = try system.open(path, .read) } catch {
            if isLog, error.errno == .noEntry { throw LedgerError(.notFound, error, path: path, "the log does not exist") }
            throw LedgerError(error, path: path, doing: "opening the \(noun)")
        }
        defer { _ = system.close(fd) }
        let status: FileStatus
        do { status = try system.fstat(fd) } catch { throw LedgerError(error, path: path, doing: "reading the \(noun)'s status") }
        switch status.kind {
        case .regular: return try body(fd, status)
        case .directory: throw LedgerError(.isDirectory, path: path, "is a directory, not a \(isLog ? "log file" : "file")")
        default: throw LedgerError(.notRegularFile, path: path, "is not a regular file" + (isLog ? " (a FIFO, socket or device?)" : ""))
        }
    }
}
