import CSHA256

/// SHA-256 (FIPS 180-4) in pure Swift: the hash that chains the log's lines.
///
/// Processes 64-byte blocks straight from the caller's memory with no
/// allocation per block. Use `hash(_:)` for one
/// buffer, or `update(_:)` and `finalize()` to hash in pieces.
public struct SHA256: Sendable {   // public for `Digest` (a log's head); hashing is package
    private var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
    private var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c, h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
    /// Bytes of a block not yet processed.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0
    private var length: UInt64 = 0

    /// Starts a hash.
    package init() {}

    /// The digest of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> Digest {
        var h = SHA256()
        h.update(bytes)
        return h.finalize()
    }

    /// The digest of a collection of bytes.
    package static func hash<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Digest {
        var h = SHA256()
        h.update(bytes)
        return h.finalize()
    }

    /// Adds bytes to the hash.
    package mutating func update<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// Adds bytes to the hash.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var p = bytes.baseAddress, bytes.count > 0 else { return }
        var n = bytes.count
        length &+= UInt64(n)
        if pendingCount > 0 {
            let take = min(64 - pendingCount, n)
            let count = pendingCount
            withUnsafeMutableBytes(of: &pending) { buf in
                buf.baseAddress.map { ($0 + count).copyMemory(from: p, byteCount: take) }
            }
            pendingCount += take
            p += take
            n -= take
            guard pendingCount == 64 else { return }
            var block = pending
            withUnsafeBytes(of: &block) { buf in
                if let base = buf.baseAddress { compress(base, blocks: 1) }
            }
            pendingCount = 0
        }
        let blocks = n / 64
        if blocks > 0 {
            compress(p, blocks: blocks)
            p += blocks * 64
            n -= blocks * 64
        }
        if n > 0 {
            withUnsafeMutableBytes(of: &pending) { buf in
                buf.baseAddress.map { $0.copyMemory(from: p, byteCount: n) }
            }
            pendingCount = n
        }
    }

    /// Pads the message and returns its digest.
    package consuming func finalize() -> Digest {
        let bits = length &* 8
        // The tail: pending bytes, 0x80, zeros, the 64-bit length; one or two blocks.
        var tail: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                   UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let count = pendingCount
        let total = count + 1 + 8 <= 64 ? 64 : 128
        var block = pending
        withUnsafeMutableBytes(of: &tail) { t in
            guard let base = t.baseAddress else { return }
            withUnsafeBytes(of: &block) { b in
                b.baseAddress.map { base.copyMemory(from: $0, byteCount: count) }
            }
            t[count] = 0x80
            t.storeBytes(of: bits.bigEndian, toByteOffset: total - 8, as: UInt64.self)
        }
        withUnsafeBytes(of: &tail) { t in
            if let base = t.baseAddress { compress(base, blocks: total / 64) }
        }
        return Digest(h0, h1, h2, h3, h4, h5, h6, h7)
    }

    /// Processes `blocks` 64-byte blocks at `data`.
    private mutating func compress(_ data: UnsafeRawPointer, blocks: Int) {
        var s0 = h0, s1 = h1, s2 = h2, s3 = h3, s4 = h4, s5 = h5, s6 = h6, s7 = h7
        let k = pl_sha256_constants()   // the round constants, one table with the hardware path
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            guard let k, let w = w.baseAddress else { return }
            for block in 0..<blocks {
                let p = data + block &* 64
                for t in 0..<16 {
                    w[t] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                }
                for t in 16..<64 {
                    let x = w[t &- 15], y = w[t &- 2]
                    let sigma0 = rotr(x, 7) ^ rotr(x, 18) ^ (x &>> 3)
                    let sigma1 = rotr(y, 17) ^ rotr(y, 19) ^ (y &>> 10)
                    w[t] = w[t &- 16] &+ sigma0 &+ w[t &- 7] &+ sigma1
                }
                var a = s0, b = s1, c = s2, d = s3, e = s4, f = s5, g = s6, h = s7
                // Eight rounds per step, the registers renamed instead of shifted.
                var t = 0
                while t < 64 {
                    round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
                    round(h, a, b, &c, d, e, f, &g, k[t &+ 1] &+ w[t &+ 1])
                    round(g, h, a, &b, c, d, e, &f, k[t &+ 2] &+ w[t &+ 2])
                    round(f, g, h, &a, b, c, d, &e, k[t &+ 3] &+ w[t &+ 3])
                    round(e, f, g, &h, a, b, c, &d, k[t &+ 4] &+ w[t &+ 4])
                    round(d, e, f, &g, h, a, b, &c, k[t &+ 5] &+ w[t &+ 5])
                    round(c, d, e, &f, g, h, a, &b, k[t &+ 6] &+ w[t &+ 6])
                    round(b, c, d, &e, f, g, h, &a, k[t &+ 7] &+ w[t &+ 7])
                    t &+= 8
                }
                s0 &+= a; s1 &+= b; s2 &+= c; s3 &+= d; s4 &+= e; s5 &+= f; s6 &+= g; s7 &+= h
            }
        }
        h0 = s0; h1 = s1; h2 = s2; h3 = s3; h4 = s4; h5 = s5; h6 = s6; h7 = s7
    }
}

@inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

/// One SHA-256 round: `d += T1`, `h = T1 + T2` (the caller renames the registers).
@inline(__always)
private func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                   _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
    let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (g ^ (e & (f ^ g))) &+ kw
    let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) | (c & (a | b)))
    d = d &+ t1
    h = t1 &+ t2
}
