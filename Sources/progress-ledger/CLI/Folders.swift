#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the CLI needs to know of folders, without Foundation (whose loading
/// costs ~10 MiB and tens of milliseconds at every start).
enum Folders {
    /// What is at a path, following symbolic links.
    enum Kind { case directory, other }

    /// What is at `path`, or nil when nothing is (or it cannot be looked at).
    static func kind(_ path: String) -> Kind? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (status.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
    }

    /// Creates `path` and any missing parents (mode 0777 less the umask), as `mkdir -p` does.
    static func create(_ path: String) throws(CLIError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += part
            if mkdir(prefix, 0o777) != 0 {
                let code = errno
                if code != EEXIST || kind(prefix) != .directory {
                    throw .failure("\(path): cannot create the folder: \(String(cString: strerror(code)))")
                }
            }
            prefix += "/"
        }
    }
}
