/// Reading a stream (stdin) to its end.
extension System {
    /// Every byte `fd` gives until its end (`read` in 64 KiB chunks, EINTR retried).
    package func readAll(_ fd: CInt) throws(SystemCallError) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try read(fd, into: buffer) }
            }.get()
            if n == 0 { return data }
            data.append(contentsOf: chunk[0..<n])
        }
    }
}
