/// A file's identity on its file system: device and inode.
///
/// A log replaced by another file (restored, copied over, re-created) has
/// another identity, even at the same path; a log renamed keeps it.
package struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The device the file is on.
    package var device: UInt64
    /// The file's inode number on that device.
    package var inode: UInt64

    /// Makes an identity.
    package init(device: UInt64, inode: UInt64) { self.device = device; self.inode = inode }

    /// `device 2049, inode 131`.
    package var description: String { "device \(device), inode \(inode)" }
}

/// Where a checked read of a log stopped, and what it knew there: enough for
/// a later read to check only the lines after it, as a full read would.
///
/// Made by ``LogReader/scan(after:_:tracking:_:)``; kept in a
/// ``Snapshot`` next to the lines selected up to it.
struct ResumePoint: Sendable, Hashable {
    /// The log file read.
    var file: FileIdentity
    /// The byte offset just after the LF of line `head.seq` (0 for an empty log).
    var offset: Int
    /// The last line read: its `seq` and SHA-256 (`Head.empty` for an empty log).
    var head: Head
    /// How many of the lines up to the head have `v` > 1.
    var newerVersionLines: Int
    /// The digests of every id up to the head.
    var ids: IDDigests

    /// Makes a resume point.
    init(file: FileIdentity, offset: Int, head: Head, newerVersionLines: Int, ids: IDDigests) {
        self.file = file; self.offset = offset; self.head = head
        self.newerVersionLines = newerVersionLines; self.ids = ids
    }
}
