/// Why a snapshot is not used: the caller reads the whole log instead.
///
/// A snapshot is never trusted when anything about it or the log does not
/// match; each reason says what did not.
public struct SnapshotRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reasons, named as the CLI prints them.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// There is no snapshot file (yet).
        case missing
        /// The snapshot file cannot be read (permissions, I/O, a directory...).
        case unreadable
        /// The file is not a snapshot, or is damaged (checksum, truncation, inconsistent fields, undecodable state).
        case garbled
        /// Written by a newer version of the code.
        case newerFormat = "newer_format"
        /// Written by an older version whose format this one no longer reads.
        case olderFormat = "older_format"
        /// Made for another fold (another user, as-of, streak mode...).
        case otherFold = "other_fold"
        /// The log is not the file the snapshot was made from (another device or inode).
        case otherFile = "other_file"
        /// The log is shorter than the bytes the snapshot covers.
        case truncated
        /// The line that ends where the snapshot stopped is not its head any more.
        case headMismatch = "head_mismatch"
        /// A new line's id may repeat an id before the snapshot's head: only a full read can tell.
        case repeatedID = "repeated_id"
    }

    /// Why.
    public var reason: Reason
    /// What did not match, for a person (one line, no path prefix).
    public var message: String

    /// Makes a rejection.
    public init(_ reason: Reason, _ message: String) { self.reason = reason; self.message = message }

    /// The message.
    public var description: String { message }
}
