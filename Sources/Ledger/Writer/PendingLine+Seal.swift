import Events

/// Sealing a line: the one place a prepared line gets its `seq` and `prev`.
extension PendingLine {
    /// Writes the line sealed at `seq` after a line hashing to `prev`, then its
    /// LF, to `out` (``length(seq:)`` + 1 bytes); returns the line's SHA-256
    /// (without the LF), the `prev` of the line after it.
    ///
    /// `LedgerWriter.append` seals its batches with it under the lock, and
    /// `SealedBatch` seals a store's callers' lines with it as they arrive.
    @inline(__always)
    func seal(seq: Int, after prev: SHA256.Digest, to out: UnsafeMutablePointer<UInt8>) -> SHA256.Digest {
        let prevAt = write(seq: seq, to: out)
        prev.writeHex(to: out + prevAt)
        let length = length(seq: seq)
        out[length] = 0x0A
        return LineDigest.of(UnsafeRawBufferPointer(start: out, count: length))
    }
}
