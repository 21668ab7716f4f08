/// Reading a small whole file (a catalog, a snapshot) through the ledger's one
/// system-call layer, with the ledger's errors.
package enum SmallFile {
    /// The default limit: 64 MiB.
    package static let defaultLimit = 64 << 20

    /// The whole content of the regular file at `path`, at most `limit` bytes.
    ///
    /// Throws `.notFound`, `.isDirectory`, `.notRegularFile`, `.permission` or
    /// `.io` naming the path and the call; a file over `limit` is `.io` too.
    package static func read(_ path: String, limit: Int = defaultLimit) throws(LedgerError) -> [UInt8] {
        try read(path, limit: limit, system: System())
    }

    static func read(_ path: String, limit: Int, system: System) throws(LedgerError) -> [UInt8] {
        try RegularFile.withOpen(path, isLog: false, system: system) { (fd, status) throws(LedgerError) in try read(fd, status, path, limit, system) }
    }

    private static func read(_ fd: CInt, _ status: FileStatus, _ path: String, _ limit: Int, _ system: System) throws(LedgerError) -> [UInt8] {
        guard status.size <= limit else {
            throw LedgerError(.io, path: path, "is \(status.size) bytes; at most \(limit) are read")
        }
        var failure: LedgerError? = nil
        // Not zero-filled first: a snapshot can be megabytes, read at every warm start.
        let bytes = [UInt8](unsafeUninitializedCapacity: status.size) { buffer, initialized in
            var done = 0
            while done < status.size {
                let n: Int
                do throws(SystemCallError) {
                    n = try system.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[done...]), at: done)
                } catch {
                    failure = LedgerError(error, path: path, doing: "reading the file")
                    break
                }
                if n == 0 { break }
                done += n
            }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
    }
}
