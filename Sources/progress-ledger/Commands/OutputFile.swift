import Ledger

/// Writes a command's output file (a report, the demo's page) through the
/// Ledger's `SmallFile.write`: whole or not at all (a temporary file beside it,
/// renamed over it), mode 0600, never through a symlink, never over a log.
enum OutputFile {
    /// Writes `bytes` to `path`; a failure is a `CLIError.failure` naming the path.
    static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
        do {
            try SmallFile.write(bytes, to: path)
        } catch {
            throw .failure(error.description)
        }
    }
}

extension OutputFile {
    /// Writes `bytes` to `path` when given, else to stdout.
    static func write(_ bytes: [UInt8], to path: String?, _ io: Terminal) throws(CLIError) {
        if let path { try write(bytes, to: path) } else { io.write(bytes: bytes) }
    }
}
