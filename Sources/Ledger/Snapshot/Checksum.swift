/// XXH64 (xxHash, 64 bits, seed 0): a fast non-cryptographic hash.
///
/// Used where speed matters and an adversary does not: the checksum that
/// finds a damaged snapshot file, and the digests of ids a resumed read
/// compares (a collision only costs a full read). The chain itself uses SHA-256.
enum XXH64 {
    private static let p1: UInt64 = 11_400_714_785_074_694_791
    private static let p2: UInt64 = 14_029_467_366_897_019_727
    private static let p3: UInt64 = 1_609_587_929_392_839_161
    private static let p4: UInt64 = 9_650_029_242_287_828_579
    private static let p5: UInt64 = 2_870_177_450_012_600_261

    /// The hash of `data`.
    static func hash(_ data: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let n = data.count
        var i = 0
        var h: UInt64
        if n >= 32 {
            var v1 = seed &+ p1 &+ p2, v2 = seed &+ p2, v3 = seed, v4 = seed &- p1
            while i + 32 <= n {
                v1 = round(v1, word(data, i))
                v2 = round(v2, word(data, i + 8))
                v3 = round(v3, word(data, i + 16))
                v4 = round(v4, word(data, i + 24))
                i += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(h, v1); h = merge(h, v2); h = merge(h, v3); h = merge(h, v4)
        } else {
            h = seed &+ p5
        }
        h &+= UInt64(n)
        return tail(h, data, from: i)
    }

    /// The hash of a byte array.
    static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { hash($0) } }

    /// The hash of a string's UTF-8.
    static func hash(_ text: String) -> UInt64 {
        var s = text
        return s.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// XXH64 computed over bytes given in pieces: the same value as ``hash(_:seed:)`` of their concatenation.
    struct Streaming {
        private var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4: UInt64 = 0 &- p1
        private var total = 0
        /// Bytes not yet consumed as a whole 32-byte stripe.
        private var pending: [UInt8] = []

        init() { pending.reserveCapacity(32) }

        /// Adds the next bytes.
        mutating func update(_ data: UnsafeRawBufferPointer) {
            total += data.count
            var i = 0
            if !pending.isEmpty {
                let take = min(32 - pending.count, data.count)
                pending.append(contentsOf: data[0..<take])
                i = take
                guard pending.count == 32 else { return }
                pending.withUnsafeBytes { stripe(UnsafeRawBufferPointer($0), 0) }
                pending.removeAll(keepingCapacity: true)
            }
            while i + 32 <= data.count {
                stripe(data, i)
                i += 32
            }
            if i < data.count { pending.append(contentsOf: data[i...]) }
        }

        /// Adds the next bytes.
        mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

        @inline(__always)
        private mutating func stripe(_ data: UnsafeRawBufferPointer, _ i: Int) {
            v1 = XXH64.round(v1, XXH64.word(data, i))
            v2 = XXH64.round(v2, XXH64.word(data, i + 8))
            v3 = XXH64.round(v3, XXH64.word(data, i + 16))
            v4 = XXH64.round(v4, XXH64.word(data, i + 24))
        }

        /// The hash of every byte added.
        func finalize() -> UInt64 {
            var h: UInt64
            if total >= 32 {
                h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
                h = merge(h, v1); h = merge(h, v2); h = merge(h, v3); h = merge(h, v4)
            } else {
                h = p5
            }
            h &+= UInt64(total)
            return pending.withUnsafeBytes { XXH64.tail(h, UnsafeRawBufferPointer($0), from: 0) }
        }
    }

    /// The end of the algorithm: the last < 32 bytes, then the avalanche.
    private static func tail(_ start: UInt64, _ data: UnsafeRawBufferPointer, from: Int) -> UInt64 {
        var h = start
        var i = from
        let n = data.count
        while i + 8 <= n {
            h ^= round(0, word(data, i))
            h = rotl(h, 27) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            h ^= UInt64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: i, as: UInt32.self))) &* p1
            h = rotl(h, 23) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h ^= UInt64(data[i]) &* p5
            h = rotl(h, 11) &* p1
            i += 1
        }
        h ^= h >> 33
        h &*= p2
        h ^= h >> 29
        h &*= p3
        h ^= h >> 32
        return h
    }

    @inline(__always) private static func word(_ data: UnsafeRawBufferPointer, _ i: Int) -> UInt64 {
        UInt64(littleEndian: data.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    }

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* p2, 31) &* p1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* p1 &+ p4
    }
}
