/// A stretch of whole lines of a log, kept open to be copied out piece by
/// piece (a server's pull): the bytes of lines `first...first + count - 1`,
/// each with its LF, exactly as in the file.
///
/// Made by ``LedgerWriter/slice(after:limit:)`` from lines the writer has
/// checked; it reads through a descriptor of its own, so it outlives the
/// writer and holds the same file even if the log is renamed meanwhile.
/// Used by one thread at a time.
package final class LogSlice: @unchecked Sendable {
    /// The log's path.
    package let path: String
    /// How many lines.
    package let count: Int
    /// Their bytes, LFs included.
    package let length: Int
    /// The log's head when the slice was made (its last line may come after the slice's).
    package let head: Head

    private let system: System
    private var fd: CInt
    private var offset: Int
    private let end: Int

    /// An empty slice of a log whose head is `head` (no descriptor).
    package init(path: String, head: Head) {
        self.path = path; self.head = head
        count = 0; length = 0; offset = 0; end = 0
        fd = -1
        system = System()
    }

    init(path: String, system: System, fd: CInt, offset: Int, end: Int, count: Int, head: Head) {
        self.path = path; self.system = system; self.fd = fd
        self.offset = offset; self.end = end; self.count = count; self.head = head
        length = end - offset
    }

    /// The bytes not read yet.
    package var remaining: Int { end - offset }

    /// Reads the next bytes into `buffer` (at most its size); 0 once all were read.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(LedgerError) -> Int {
        let want = min(buffer.count, end - offset)
        guard want > 0 else { return 0 }
        let n: Int
        do { n = try system.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: offset) } catch {
            throw LedgerError(error, path: path, doing: "reading lines to send")
        }
        guard n > 0 else { throw LedgerError(.replaced, path: path, "the log became shorter while its lines were sent") }
        offset += n
        return n
    }

    /// Closes the descriptor (also done when the slice is released).
    package func close() {
        guard fd >= 0 else { return }
        system.close(fd)
        fd = -1
    }

    deinit { close() }
}
