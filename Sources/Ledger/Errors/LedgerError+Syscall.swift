/// Errors made from failed system calls.
extension LedgerError {
    /// The error of a failed system call on `path`, with a code chosen from its errno.
    ///
    /// `doing` says what the ledger was doing, e.g. "appending a batch".
    init(_ failure: SystemCallError, path: String, doing: String) {
        let code: Code
        switch failure.errno {
        case .noEntry, .notDirectory: code = .notFound
        case .accessDenied, .notPermitted, .readOnlyFileSystem: code = .permission
        case .isDirectory: code = .isDirectory
        default: code = .io
        }
        self.init(code, path: path, "\(doing) failed: \(failure)", cause: .system(failure))
    }

    /// The error of a failed system call with an explicit code.
    init(_ code: Code, _ failure: SystemCallError, path: String, _ message: String) {
        self.init(code, path: path, "\(message) (\(failure))", cause: .system(failure))
    }
}
