/// Torn-tail recovery: the one time the ledger shortens its log.
extension LedgerWriter {
    /// Under the lock: copies the bytes after the last LF to a new side file
    /// beside the log (0600, fsync'd, never overwriting one), then truncates
    /// the log to its last complete line and fsyncs it.
    ///
    /// If a step fails, the log still holds the tail (or is already truncated
    /// with the tail safe in the side file) and the error names the step.
    func recover(_ tail: TornTail) throws(LedgerError) {
        let (side, sideFD) = try createSideFile(line: tail.line)
        do throws(LedgerError) {
            try copyTail(tail, to: sideFD, sidePath: side)
            do { try system.fsync(sideFD) } catch {
                throw LedgerError(.io, error, path: side, "making the side file durable failed; the log still holds its torn tail")
            }
        } catch {
            system.close(sideFD)
            throw error
        }
        if let e = system.close(sideFD) {
            throw LedgerError(.io, e, path: side, "closing the side file failed; the log still holds its torn tail")
        }
        try syncDirectory()
        do { try system.ftruncate(fd, to: tail.offset) } catch {
            throw LedgerError(.io, error, path: path,
                              "truncating the log to its last complete line (\(tail.offset) bytes) failed; "
                                  + "its torn tail is still in it (and copied to \(side))")
        }
        do { try system.fsync(fd) } catch {
            let e = LedgerError(.notDurable, error, path: path,
                                "the log was truncated to its last complete line but fsync failed; "
                                    + "its torn tail is in \(side). This writer is unusable: reopen the log")
            state = .broken(e)
            throw e
        }
        recoveries.append(Recovery(logPath: path, sideFile: side, tail: tail))
    }

    /// Creates `LOG.torn-<line>-<unix seconds>` (adding `-2`, `-3`... if taken), 0600, exclusively.
    private func createSideFile(line: Int) throws(LedgerError) -> (String, CInt) {
        let stem = "\(path).torn-\(line)-\(System.now())"
        for k in 1...1000 {
            let candidate = k == 1 ? stem : "\(stem)-\(k)"
            do {
                return (candidate, try system.open(candidate, .writeCreateNew))
            } catch where error.errno == .exists {
                continue
            } catch {
                throw LedgerError(.io, error, path: candidate, "creating the side file for the log's torn tail failed; the log is unchanged")
            }
        }
        throw LedgerError(.io, path: stem, "a thousand side files of this name already exist; the log is unchanged")
    }

    private func copyTail(_ tail: TornTail, to sideFD: CInt, sidePath: String) throws(LedgerError) {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = tail.offset
        let end = tail.offset + tail.length
        while offset < end {
            let want = min(chunk, end - offset)
            let n: Int
            do {
                n = try system.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: offset)
            } catch {
                throw LedgerError(.io, error, path: path, "reading the torn tail failed; the log is unchanged")
            }
            guard n > 0 else {
                throw LedgerError(.io, path: path, "the torn tail ended early (the file shrank); the log is unchanged")
            }
            do {
                try system.writeAll(sideFD, UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            } catch {
                throw LedgerError(.io, error.cause, path: sidePath, "writing the side file failed; the log still holds its torn tail")
            }
            offset += n
        }
    }
}
