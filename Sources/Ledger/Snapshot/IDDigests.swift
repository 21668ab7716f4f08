/// The 64-bit digests (XXH64 of the UTF-8) of every id up to a resume point, in order.
///
/// A resumed read cannot see the ids before its resume point, yet an id in the
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

    /// `count` little-endian digests in `bytes` from `start`, ascending, used in place.
    ///
    /// Their order is not checked here: the snapshot file's checksum covers
    /// them, and a snapshot written on purpose to lie could lie about anything.
    package init?(littleEndian bytes: [UInt8], start: Int, count: Int) {
        guard start >= 0, count >= 0, count <= (bytes.count - start) / 8 else { return nil }
        base = bytes; baseStart = start; baseCount = count
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
    /// bytes, in pieces: runs of the loaded digests straight from where they
    /// are, the added ones (few, on a warm start) gathered in between.
    package func forEachChunk<E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let result = base.withUnsafeBytes { raw in
            Result { () throws(E) in try forEachChunk(raw, body) }
        }
        try result.get()
    }

    private func forEachChunk<E: Error>(_ raw: UnsafeRawBufferPointer,
                                        _ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        var staged: [UInt64] = []
        staged.reserveCapacity(min(added.count, 8192))
        func flush() throws(E) {
            guard !staged.isEmpty else { return }
            try staged.withUnsafeBytes { b in Result { () throws(E) in try body(b) } }.get()
            staged.removeAll(keepingCapacity: true)
        }
        var i = 0   // the next loaded digest to pass on
        var j = 0   // the next added digest
        while i < baseCount || j < added.count {
            guard j < added.count else {
                try flush()
                try body(UnsafeRawBufferPointer(rebasing: raw[(baseStart + 8 * i)..<(baseStart + 8 * baseCount)]))
                return
            }
            // The loaded digests up to the next added one (ties: loaded first).
            var lo = i, hi = baseCount
            while lo < hi {
                let mid = (lo + hi) / 2
                if baseDigest(raw, mid) <= added[j] { lo = mid + 1 } else { hi = mid }
            }
            if lo > i {
                try flush()
                try body(UnsafeRawBufferPointer(rebasing: raw[(baseStart + 8 * i)..<(baseStart + 8 * lo)]))
                i = lo
            }
            staged.append(added[j].littleEndian)
            j += 1
            if staged.count == 8192 { try flush() }
        }
        try flush()
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
