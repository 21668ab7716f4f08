/// A file's identity on its file system: device and inode.
///
/// A log replaced by another file (restored, copied over, re-created) has
/// another identity, even at the same path; a log renamed keeps it.
public struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The device the file is on.
    public var device: UInt64
    /// The file's inode number on that device.
    public var inode: UInt64

    /// Makes an identity.
    public init(device: UInt64, inode: UInt64) { self.device = device; self.inode = inode }

    /// `device 2049, inode 131`.
    public var description: String { "device \(device), inode \(inode)" }
}

/// Where a checked read of a log stopped, and what it knew there: enough for
/// a later read to check only the lines after it, as a full read would.
///
/// Made by ``LogReader/forEachRecord(after:progress:_:)``; kept in a
/// ``Snapshot`` next to the state folded up to it.
public struct LogCheckpoint: Sendable, Hashable {
    /// The log file read.
    public var file: FileIdentity
    /// The byte offset just after the LF of line `head.seq` (0 for an empty log).
    public var offset: Int
    /// The last line read: its `seq` and SHA-256 (`Head.empty` for an empty log).
    public var head: Head
    /// How many of the lines up to the head have `v` > 1.
    public var newerVersionLines: Int
    /// The digests of every id up to the head.
    package var ids: IDDigests

    /// Makes a checkpoint.
    package init(file: FileIdentity, offset: Int, head: Head, newerVersionLines: Int, ids: IDDigests) {
        self.file = file; self.offset = offset; self.head = head
        self.newerVersionLines = newerVersionLines; self.ids = ids
    }
}

/// What ``LogReader/forEachRecord(after:progress:_:)`` read.
public struct CheckpointedRead: Sendable, Hashable {
    /// The whole log's summary, as a full ``LogReader/forEachRecord(progress:_:)`` returns it.
    public var summary: LogSummary
    /// Where this read stopped: give it to the next read (or save it in a ``Snapshot``).
    public var checkpoint: LogCheckpoint
    /// Whether the read started after the checkpoint it was given (false: from the first line).
    public var resumed: Bool
    /// Complete lines this read checked and handed to its callback (only the tail when resumed).
    public var linesRead: Int
}
