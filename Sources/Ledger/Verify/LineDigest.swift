import CSHA256

/// The SHA-256 of a line as readers compute it: with the CPU's SHA
/// instructions when it has them (~4x faster), else ``SHA256``. Both give the
/// same digest (the tests compare them on every length up to a few blocks).
///
/// One line at a time (``of(_:)``), or many at once
/// (``of(_:into:lanes:)``): the SHA instructions of one line wait on each
/// other, so hashing ``lanes`` lines interleaved fills those waits. Either
/// way each line's digest is the same.
package enum LineDigest {
    /// Whether this CPU hashes with the SHA instructions.
    static let hardware: Bool = pl_sha256_hw_available() != 0

    /// How many lines the SHA instructions hash at once in ``of(_:into:lanes:)``
    /// (1, 2 or 4; measured in docs/performance.md, "several lines' SHA-256 at once").
    package static let lanes = 2

    /// A line of a batch: where its bytes start and how many there are.
    package typealias Span = pl_sha256_span

    /// The digest of `bytes`.
    package static func of(_ bytes: UnsafeRawBufferPointer) -> SHA256.Digest {
        guard hardware, let base = bytes.baseAddress else { return SHA256.hash(bytes) }
        return hardwareDigest(base, bytes.count)
    }

    /// The digest of a line held as an array.
    static func of(_ bytes: [UInt8]) -> SHA256.Digest { bytes.withUnsafeBytes { of($0) } }

    /// `bytes` as a line of a batch (``of(_:into:lanes:)``).
    package static func span(_ bytes: UnsafeRawBufferPointer) -> Span {
        Span(data: bytes.baseAddress, length: bytes.count)
    }

    /// The digests of several lines: `digests[k]` is ``of(_:)`` of `lines[k]`
    /// (`digests` has room for `lines.count`, initialized or not). With the
    /// SHA instructions, `lanes` lines at a time, their rounds interleaved;
    /// else one by one.
    package static func of(_ lines: UnsafeBufferPointer<Span>, into digests: UnsafeMutablePointer<SHA256.Digest>,
                           lanes: Int = LineDigest.lanes) {
        guard hardware, let first = lines.baseAddress else {
            for k in lines.indices {
                (digests + k).initialize(to: of(UnsafeRawBufferPointer(start: lines[k].data, count: lines[k].length)))
            }
            return
        }
        // The state words of up to `batch` lines at a time, on the stack.
        let batch = 64
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8 * batch) { words in
            guard let w = words.baseAddress else { return }
            var start = 0
            while start < lines.count {
                let n = min(batch, lines.count - start)
                pl_sha256_hw_lines(first + start, n, w, CInt(lanes))
                for k in 0..<n {
                    let h = w + 8 * k
                    (digests + start + k).initialize(to: SHA256.Digest(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]))
                }
                start += n
            }
        }
    }

    /// The digest by the SHA instructions; only when ``hardware``.
    static func hardwareDigest(_ base: UnsafeRawPointer, _ count: Int) -> SHA256.Digest {
        var words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { pl_sha256_hw(base, count, $0.baseAddress) }
        return SHA256.Digest(UInt32(bigEndian: words.0), UInt32(bigEndian: words.1), UInt32(bigEndian: words.2),
                             UInt32(bigEndian: words.3), UInt32(bigEndian: words.4), UInt32(bigEndian: words.5),
                             UInt32(bigEndian: words.6), UInt32(bigEndian: words.7))
    }
}

extension ScannedLine {
    /// The line's SHA-256: the one its reader made with other lines
    /// (``LineDigest/of(_:into:lanes:)``), or made now.
    var digest: SHA256.Digest { hashed ?? LineDigest.of(bytes) }
}
