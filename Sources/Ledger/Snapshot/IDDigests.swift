/// The 64-bit digests (XXH64 of the UTF-8) of every id up to a checkpoint, sorted.
///
/// A resumed read cannot see the ids before its checkpoint, yet an id in the
/// tail that repeats one of them is damage (`duplicate_id`) that a full read
/// would report. A tail id whose digest is here is therefore handed back to
/// the caller as "a full read must decide" (it is a repeat, or, about once in
/// 2^64 / N, a collision). 8 bytes per event.
package struct IDDigests: Sendable, Hashable {
    /// The digests, ascending (repeats kept: one per line).
    package private(set) var sorted: [UInt64]

    /// No ids.
    package init() { sorted = [] }

    /// Digests already sorted ascending (checked by the caller).
    package init(sorted: [UInt64]) { self.sorted = sorted }

    /// The digest of an id.
    package static func digest(_ id: String) -> UInt64 { XXH64.hash(id) }

    /// How many ids.
    package var count: Int { sorted.count }

    /// Whether an id with this digest is here.
    package func contains(_ digest: UInt64) -> Bool {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < digest { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == digest
    }

    /// These digests and `more` (any order), sorted.
    package func adding(_ more: [UInt64]) -> IDDigests {
        guard !more.isEmpty else { return self }
        let extra = more.sorted()
        guard !sorted.isEmpty else { return IDDigests(sorted: extra) }
        var merged: [UInt64] = []
        merged.reserveCapacity(sorted.count + extra.count)
        var i = 0, j = 0
        while i < sorted.count, j < extra.count {
            if extra[j] < sorted[i] { merged.append(extra[j]); j += 1 } else { merged.append(sorted[i]); i += 1 }
        }
        merged.append(contentsOf: sorted[i...])
        merged.append(contentsOf: extra[j...])
        return IDDigests(sorted: merged)
    }
}
