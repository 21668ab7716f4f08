import Ledger

/// What the CLI needs to know of folders, through the Ledger's system seam
/// (not Foundation, whose loading costs ~10 MiB and tens of milliseconds at every start).
enum Folders {
    /// Whether something is at `path` (a symbolic link followed), and whether it is a directory.
    static func kind(_ path: String) -> FileStatus.Kind? { (try? System().status(of: path))?.kind }

    /// Creates `path` and any missing parents (mode 0777 less the umask), as `mkdir -p` does.
    static func create(_ path: String) throws(CLIError) {
        do { try System().makeDirectories(path, permissions: 0o777) } catch {
            throw .failure("\(path): cannot create the folder: \(System.errorText(error.errno))")
        }
    }
}
