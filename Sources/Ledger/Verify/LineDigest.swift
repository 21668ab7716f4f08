import CSHA256

/// The SHA-256 of a line as readers compute it: with the CPU's SHA
/// instructions when it has them (~4x faster), else ``SHA256``. Both give the
/// same digest (the tests compare them on every length up to a few blocks).
package enum LineDigest {
    /// Whether this CPU hashes with the SHA instructions.
    static let hardware: Bool = pl_sha256_hw_available() != 0

    /// The digest of `bytes`.
    package static func of(_ bytes: UnsafeRawBufferPointer) -> SHA256.Digest {
        guard hardware, let base = bytes.baseAddress else { return SHA256.hash(bytes) }
        return hardwareDigest(base, bytes.count)
    }

    /// The digest of a line held as an array.
    static func of(_ bytes: [UInt8]) -> SHA256.Digest { bytes.withUnsafeBytes { of($0) } }

    /// The digest by the SHA instructions; only when ``hardware``.
    static func hardwareDigest(_ base: UnsafeRawPointer, _ count: Int) -> SHA256.Digest {
        var words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { pl_sha256_hw(base, count, $0.baseAddress) }
        return SHA256.Digest(UInt32(bigEndian: words.0), UInt32(bigEndian: words.1), UInt32(bigEndian: words.2),
                             UInt32(bigEndian: words.3), UInt32(bigEndian: words.4), UInt32(bigEndian: words.5),
                             UInt32(bigEndian: words.6), UInt32(bigEndian: words.7))
    }
}
