/// The 64-bit hash the id indexes file an id under: SipHash-1-3 of the id's
/// UTF-8, keyed with a key drawn once per process (from the standard
/// library's random `Hasher` seed).
///
/// Keyed, so that no log can be written to make many ids share a hash: the
/// reader's index keeps only hashes and reads a line back from the file for
/// every hash it finds twice (``IDFingerprints``), which stays rare only if
/// nobody can choose the collisions. Computed where the line is decoded (on a
/// reader's worker thread).
///
/// The same function as `Hasher`'s (SipHash-1-3), written out here for
/// ids: one round a word, no buffering, nothing to initialize per call
/// (measured in docs/performance.md, "verify outside the check, fifth pass").
struct IDHasher: Sendable {
    /// Only these bits of the hash are kept. Tests narrow it to force collisions.
    var mask: UInt64
    /// The key.
    let k0: UInt64, k1: UInt64

    /// The process's key; `mask` narrows the hashes (tests).
    init(mask: UInt64 = ~0) {
        self.init(mask: mask, key: IDHasher.processKey)
    }

    /// A hasher with this key (tests compare it with a reference).
    init(mask: UInt64 = ~0, key: (UInt64, UInt64)) {
        self.mask = mask
        (k0, k1) = key
    }

    /// Drawn once per process: two outputs of the standard library's keyed `Hasher`.
    private static let processKey: (UInt64, UInt64) = {
        func draw(_ tag: UInt64) -> UInt64 {
            var hasher = Hasher()
            hasher.combine(tag)
            return UInt64(UInt(bitPattern: hasher.finalize()))
        }
        return (draw(0x6964_2d6b_6579_2d30), draw(0x6964_2d6b_6579_2d31))
    }()

    /// The hash of an id's UTF-8 bytes.
    @inline(__always) func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        hash(bytes, count: bytes.count, zeroPadded: false)
    }

    /// The hash of a line's id: ``hash(_:)-(UnsafeRawBufferPointer)`` of its
    /// bytes, its last word read whole (the storage after the id is zeros).
    @inline(__always) func hash(_ id: LineID) -> UInt64 {
        id.withPaddedBytes { hash($0, count: id.count, zeroPadded: true) }
    }

    /// SipHash-1-3 of the first `n` bytes of `bytes`; `zeroPadded`: the bytes
    /// after them, to the next multiple of eight, are in `bytes` and zero.
    @inline(__always) private func hash(_ bytes: UnsafeRawBufferPointer, count n: Int, zeroPadded: Bool) -> UInt64 {
        var v0 = k0 ^ 0x736f_6d65_7073_6575, v1 = k1 ^ 0x646f_7261_6e64_6f6d
        var v2 = k0 ^ 0x6c79_6765_6e65_7261, v3 = k1 ^ 0x7465_6462_7974_6573
        @inline(__always) func round() {
            v0 &+= v1; v1 = v1.rotated(13); v1 ^= v0; v0 = v0.rotated(32)
            v2 &+= v3; v3 = v3.rotated(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotated(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotated(17); v1 ^= v2; v2 = v2.rotated(32)
        }
        var k = 0
        while k &+ 8 <= n {
            let m = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            v3 ^= m; round(); v0 ^= m
            k &+= 8
        }
        // The last 0-7 bytes, little-endian, and the length's low byte on top.
        var last = UInt64(truncatingIfNeeded: n) << 56
        if k < n {
            if zeroPadded {
                last |= UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            } else {
                var shift: UInt64 = 0
                while k < n {
                    last |= UInt64(bytes[k]) << shift
                    shift &+= 8; k &+= 1
                }
            }
        }
        v3 ^= last; round(); v0 ^= last
        v2 ^= 0xff
        round(); round(); round()
        return (v0 ^ v1 ^ v2 ^ v3) & mask
    }

    /// The hash of an id.
    func hash(_ id: String) -> UInt64 {
        var copy = id
        return copy.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }
}

extension UInt64 {
    /// Rotated left by `n` bits (0 < n < 64).
    @inline(__always) fileprivate func rotated(_ n: UInt64) -> UInt64 { self << n | self >> (64 &- n) }
}
