/// The 64-bit digests (XXH64 of the UTF-8) of every id up to a checkpoint, in order.
///
/// A resumed read cannot see the ids before its checkpoint, yet an id in the
/// tail that repeats one of them is damage (`duplicate_id`) that a full read
/// would report. A tail id whose digest is here is therefore handed back to
/// the caller as "a full read must decide" (it is a repeat, or, about once in
/// 2^64 / N, a collision). 8 bytes per event.
///
/// Kept as two sorted runs so a warm start copies nothing: the digests loaded
/// from a snapshot file (its little-endian bytes, used where they are) and the
/// few added since; they are merged only when written out.
package struct IDDigests: Sendable {
    /// Bytes holding `baseCount` little-endian digests, ascending, from `baseStart`.
    private var base: [UInt8] = []
    private var baseStart = 0
    private var baseCount = 0
    /// Digests added after the base, ascending.
    private var added: [UInt64] = []

    /// No ids.
    package init() {}

    /// Digests already sorted ascending.
    package init(sorted: [UInt64]) { added = sorted }

    /// `count` little-endian digests in `bytes` from `start`, used in place; nil unless ascending.
    package init?(littleEndian bytes: [UInt8], start: Int, count: Int) {
        guard start >= 0, count >= 0, count <= (bytes.count - start) / 8 else { return nil }
        base = bytes; baseStart = start; baseCount = count
        let ascending = bytes.withUnsafeBytes { raw in
            var previous: UInt64 = 0
            for i in 0..<count {
                let d = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 8 * i, as: UInt64.self))
                if d < previous { return false }
                previous = d
            }
            return true
        }
        guard ascending else { return nil }
    }

    /// The digest of an id.
    package static func digest(_ id: String) -> UInt64 { XXH64.hash(id) }

    /// How many ids.
    package var count: Int { baseCount + added.count }

    /// Whether an id with this digest is here.
    package func contains(_ digest: UInt64) -> Bool {
        var lo = 0, hi = added.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if added[mid] < digest { lo = mid + 1 } else { hi = mid }
        }
        if lo < added.count, added[lo] == digest { return true }
        guard baseCount > 0 else { return false }
        return base.withUnsafeBytes { raw in
            var lo = 0, hi = baseCount
            while lo < hi {
                let mid = (lo + hi) / 2
                if baseDigest(raw, mid) < digest { lo = mid + 1 } else { hi = mid }
            }
            return lo < baseCount && baseDigest(raw, lo) == digest
        }
    }

    @inline(__always)
    private func baseDigest(_ raw: UnsafeRawBufferPointer, _ i: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: baseStart + 8 * i, as: UInt64.self))
    }

    /// These digests and `more` (any order).
    package func adding(_ more: [UInt64]) -> IDDigests {
        guard !more.isEmpty else { return self }
        var copy = self
        copy.added = Self.merge(added, more.sorted())
        return copy
    }

    private static func merge(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        if a.isEmpty { return b }
        var merged: [UInt64] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if b[j] < a[i] { merged.append(b[j]); j += 1 } else { merged.append(a[i]); i += 1 }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }

    /// Calls `body` with every digest in ascending order as little-endian
    /// bytes, in pieces of at most 64 KiB.
    package func forEachChunk<E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let chunk = 8192
        var out = [UInt64](repeating: 0, count: chunk)
        var n = 0
        var failure: E? = nil
        func flush() {
            guard failure == nil, n > 0 else { n = 0; return }
            let result = out.withUnsafeBytes { raw in
                Result { () throws(E) in try body(UnsafeRawBufferPointer(rebasing: raw[0..<(8 * n)])) }
            }
            if case .failure(let e) = result { failure = e }
            n = 0
        }
        base.withUnsafeBytes { raw in
            var i = 0, j = 0
            while (i < baseCount || j < added.count) && failure == nil {
                let next: UInt64
                if j == added.count || (i < baseCount && baseDigest(raw, i) <= added[j]) {
                    next = baseDigest(raw, i); i += 1
                } else {
                    next = added[j]; j += 1
                }
                out[n] = next.littleEndian
                n += 1
                if n == chunk { flush() }
            }
        }
        flush()
        if let failure { throw failure }
    }

    /// Every digest, ascending.
    package var sorted: [UInt64] {
        var all: [UInt64] = []
        all.reserveCapacity(count)
        forEachChunk { (raw: UnsafeRawBufferPointer) in
            for i in 0..<(raw.count / 8) {
                all.append(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)))
            }
        }
        return all
    }
}

extension IDDigests: Hashable {
    /// The same digests, however they are stored.
    package static func == (a: IDDigests, b: IDDigests) -> Bool {
        a.count == b.count && a.sorted == b.sorted
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(count) }
}
