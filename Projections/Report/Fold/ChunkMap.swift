import Events

/// What a compact fold found for the ids its reader numbered within one chunk
/// of lines (``FoldEvent/View/Numbers``): a user's or an attempt's number in
/// the fold, by the id's number in the chunk. The first event
/// of a chunk naming an id finds it by its bytes (``ByteKeys``) and files it
/// here; the others find it here, without hashing or reading the id.
struct ChunkMap: Sendable {
    /// The chunk the values are of (-1: none).
    private var chunk = -1
    /// By number in the chunk; -1 not found yet.
    private var values: [Int32] = []

    /// Nothing filed.
    init() {}

    /// The value filed for id number `number` of `chunk`, nil if none.
    @inline(__always)
    func value(_ chunk: Int, _ number: Int32) -> Int32? {
        guard chunk == self.chunk, chunk >= 0, number >= 0, Int(number) < values.count else { return nil }
        let v = values[Int(number)]
        return v >= 0 ? v : nil
    }

    /// Files `value` for id number `number` of `chunk` (nothing for an id not numbered).
    mutating func file(_ value: Int, _ chunk: Int, _ number: Int32) {
        guard chunk >= 0, number >= 0, value >= 0, value <= Int(Int32.max) else { return }
        if chunk != self.chunk {
            self.chunk = chunk
            values.removeAll(keepingCapacity: true)
        }
        let k = Int(number)
        if k >= values.count { values.append(contentsOf: repeatElement(-1, count: k + 1 - values.count)) }
        values[k] = Int32(truncatingIfNeeded: value)
    }

    /// Forgets every value (the ids' fold numbers were forgotten).
    mutating func removeAll() {
        chunk = -1
        values.removeAll(keepingCapacity: true)
    }
}
