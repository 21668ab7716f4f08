/// Reading back what a writer holds: its head and its lines, for a server
/// that keeps one writer open per learner log and answers pulls from it.
extension LedgerWriter {
    /// The head after the lines other writers added since this writer last
    /// looked (each checked as `verify` checks it; a torn tail moved aside).
    package func refreshedHead() throws(LedgerError) -> Head {
        try checkUsable()
        return try withLock { () throws(LedgerError) -> Head in
            try catchUp()
            return chain.head
        }
    }

    /// The lines with seq greater than `after`, at most `limit` of them, after
    /// catching up as ``refreshedHead()`` does: the same bytes `export --after`
    /// prints (`LogReader.rawLines(after:_:)`), every one of them checked by
    /// this writer when it opened the log or caught up with it. Read through
    /// a descriptor of the slice's own, opened now and checked to be this log.
    package func slice(after seq: Int, limit: Int) throws(LedgerError) -> LogSlice {
        try checkUsable()
        return try withLock { () throws(LedgerError) -> LogSlice in
            try catchUp()
            let head = chain.head
            let first = max(seq, 0)   // lines first + 1 ...
            let count = max(0, min(limit, lineStarts.count - first))
            guard count > 0 else { return LogSlice(path: path, head: head) }
            let start = lineStarts[first]
            let end = first + count < lineStarts.count ? lineStarts[first + count] : knownSize
            let fd: CInt
            do throws(SystemCallError) { fd = try system.open(path, .read) } catch { throw LedgerError(error, path: path, doing: "opening the log to read its lines") }
            let status: FileStatus
            do throws(SystemCallError) { status = try system.fstat(fd) } catch {
                system.close(fd)
                throw LedgerError(error, path: path, doing: "reading the log's status")
            }
            guard status.device == identity.device, status.inode == identity.inode else {
                system.close(fd)
                throw LedgerError(.replaced, path: path, "the log was replaced by another file while this writer had it open; reopen it")
            }
            return LogSlice(path: path, system: system, fd: fd, offset: start, end: end, count: count, head: head)
        }
    }
}
