/// Why a key, a checkpoint or a proof was refused, or could not be made: a
/// kind, the file concerned (and its line, where there is one), what
/// happened, and the underlying ledger error when reading a file failed.
///
/// `check-proof`, `verify --checkpoint` and `prove` print it as
/// `FILE: [line N: ]KIND: message` and exit 1.
public struct ReceiptError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A key, note, checkpoint or proof file that is not in its format.
        case malformed
        /// The note carries no signature by the given key (or the key cannot be used).
        case key
        /// A signature by the given key that does not verify: the signed text or the signature changed.
        case signature
        /// The checkpoint's origin is not the one expected.
        case origin
        /// A root that does not match: the log's against the checkpoint's, or the one a proof leads to.
        case root
        /// A proof whose hashes are not as many as its index and sizes need.
        case path
        /// An index or size out of range: a line past the tree, an old tree larger than the new, a log shorter than the checkpoint.
        case size
        /// A file could not be read, or the log is damaged (``ReceiptError/cause`` says how).
        case file
    }

    /// The kind of failure.
    public var kind: Kind
    /// The file concerned (a key, a checkpoint, a proof, a line, a log).
    public var path: String
    /// The 1-based line of the file, where the failure is at one.
    public var line: Int?
    /// What happened, for a person, without the path.
    public var message: String
    /// The ledger's error, for ``Kind/file``.
    public var cause: LedgerError?

    /// Makes an error.
    public init(_ kind: Kind, path: String, line: Int? = nil, _ message: String) {
        self.kind = kind; self.path = path; self.line = line; self.message = message
    }

    /// A file that could not be read, or a damaged log: the ledger's error as it is.
    public init(reading error: LedgerError) {
        self.init(.file, path: error.path, error.detail)
        cause = error
    }

    /// `FILE: line N: KIND: message` (the ledger's own description for ``Kind/file``).
    public var description: String {
        if let cause { return cause.description }
        return "\(path): " + (line.map { "line \($0): " } ?? "") + "\(kind.rawValue): \(message)"
    }
}
