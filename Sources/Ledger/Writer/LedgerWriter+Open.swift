/// Opening the log file with clear refusals.
extension LedgerWriter {
    /// Opens the log for read and append, creating it (0600) when allowed.
    /// Returns the descriptor and whether the file was created.
    static func openLog(_ path: String, create: Bool, system: System) throws(LedgerError) -> (CInt, Bool) {
        // A first look, for clear messages (the open itself never follows a symlink).
        let existing: FileStatus?
        do {
            existing = try system.lstat(path)
        } catch where error.errno == .noEntry || error.errno == .notDirectory {
            existing = nil  // missing: created below when allowed
        } catch {
            throw LedgerError(error, path: path, doing: "looking at the log")
        }
        switch existing?.kind {
        case .symlink?:
            throw LedgerError(.symlink, path: path, "is a symbolic link; the ledger does not follow links (give the real path)")
        case .directory?:
            throw LedgerError(.isDirectory, path: path, "is a directory, not a log file")
        case .other?:
            throw LedgerError(.notRegularFile, path: path, "is not a regular file (a FIFO, socket or device?)")
        case .regular?, nil:
            break
        }

        for _ in 0..<8 {
            do {
                return (try system.open(path, .appendExisting), false)
            } catch where error.errno == .noEntry {
                guard create else { throw LedgerError(.notFound, error, path: path, "the log does not exist") }
            } catch {
                throw openError(error, path)
            }
            do {
                return (try system.open(path, .appendCreateNew), true)
            } catch where error.errno == .exists {
                continue  // created by someone else meanwhile: open it
            } catch where error.errno == .noEntry || error.errno == .notDirectory {
                throw LedgerError(.notFound, error, path: path,
                                  "cannot create the log: the directory \(directory(of: path)) does not exist")
            } catch {
                throw openError(error, path)
            }
        }
        throw LedgerError(.io, path: path, "the log kept appearing and disappearing while being opened")
    }

    private static func openError(_ error: SystemCallError, _ path: String) -> LedgerError {
        switch error.errno {
        case .tooManySymlinks:
            return LedgerError(.symlink, error, path: path, "is a symbolic link; the ledger does not follow links")
        case .isDirectory:
            return LedgerError(.isDirectory, error, path: path, "is a directory, not a log file")
        case .accessDenied, .notPermitted:
            return LedgerError(.permission, error, path: path, "may not be written (permission denied)")
        case .readOnlyFileSystem:
            return LedgerError(.permission, error, path: path, "is on a read-only file system")
        default:
            return LedgerError(error, path: path, doing: "opening the log")
        }
    }
}
