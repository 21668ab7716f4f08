/// Reading a stretch of a file whole.
extension System {
    /// Reads up to `bytes.count` bytes at `offset` (looping over short reads);
    /// fewer only at the end of the file. Returns how many were read.
    func readFully(_ fd: CInt, into bytes: inout [UInt8], at offset: Int) throws(SystemCallError) -> Int {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) -> Int in
                    try pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + done)
                }
            }
            let n = try result.get()
            if n == 0 { break }
            done += n
        }
        return done
    }
}
