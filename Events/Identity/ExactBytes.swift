/// Ids as bytes, compared exactly (never as `String`s) and hashed with a
/// per-process seed: the one hash and equality of the compact folds' id
/// tables (`ByteKeys`) and of the report's reader, which numbers a chunk's
/// ids on the thread that checks it (`ChunkNumbers`).
package enum ExactBytes {
    /// A 64-bit multiply-xorshift hash of the key's words, with its length, the
    /// namespace `tag` and `seed` mixed in (with ``processSeed`` a log cannot
    /// choose ids that collide), finished with MurmurHash3's `fmix64`. Several
    /// times cheaper than `Hasher` on short keys.
    @inlinable @inline(__always)
    package static func hash(_ key: UnsafeRawBufferPointer, _ tag: Int32, _ seed: UInt64) -> Int {
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        let n = key.count
        var h = seed ^ (UInt64(n) &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(UInt32(bitPattern: tag))
        @inline(__always) func mix(_ word: UInt64) {
            h = (h ^ word) &* m
            h ^= h >> 29
        }
        if n >= 8 {
            var i = 0
            while i + 8 < n {
                mix(key.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            mix(key.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))     // the last 8, overlapping
        } else if n >= 4 {
            let low = UInt64(key.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            let high = UInt64(key.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
            mix(low | high << 32)
        } else if n > 0 {
            mix(UInt64(key[0]) | UInt64(key[n / 2]) << 8 | UInt64(key[n - 1]) << 16)
        }
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return Int(truncatingIfNeeded: h)
    }

    /// Drawn once per process from the standard library's seeded hasher.
    package static let processSeed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x7265_706F_7274 as UInt64)
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }()

    /// Whether two buffers of the same length hold the same bytes.
    @inlinable @inline(__always)
    package static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        if n >= 8 {
            var i = 0
            while i + 8 < n {
                if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                    return false
                }
                i += 8
            }
            return a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        }
        if n >= 4 {
            return a.loadUnaligned(fromByteOffset: 0, as: UInt32.self) == b.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
        }
        for i in 0..<n where a[i] != b[i] { return false }
        return true
    }
}
