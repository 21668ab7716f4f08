/// A failure the tool reports on stderr with its exit code.
enum CLIError: Error {
    /// The command line is wrong: exit 64 and point at `--help`.
    case usage(String)
    /// The work failed (bad data, damaged log, I/O): exit 1.
    case failure(String)
}
