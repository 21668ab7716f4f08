/// Every id of a log with its seq, for the `duplicate_id` check and the
/// writer's idempotency lookups.
///
/// Ids are appended in seq order to one byte arena; an open-addressing table
/// maps a hash of the id to its seq, and a hit is confirmed by comparing the
/// bytes, so the answers are exact whatever the hash does. About 19 bytes an
/// id plus the id itself, against ~40 for a `[String: Int]`, and the hash is
/// computed where the line is decoded (on a reader's worker thread).
struct IDIndex {
    /// The ids' UTF-8, one after another, in seq order.
    private var arena: [UInt8] = []
    /// `ends[k]`: where the id of seq `k + 1` ends in `arena`.
    private var ends: [Int] = []
    /// Slots: 0 when empty, else `UInt64(hash >> 32) << 32 | seq` (a log of
    /// more than 2^32 lines would need wider slots).
    private var table: [UInt64] = Array(repeating: 0, count: 1024)

    /// How many ids are indexed (= the highest seq).
    var count: Int { ends.count }

    /// The hash the index files `id` under.
    static func hash(_ id: String) -> UInt64 { hash(bytes: id.utf8) }

    /// FNV-1a over the bytes, then mixed.
    static func hash<Bytes: Sequence<UInt8>>(bytes: Bytes) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        // Mix, so that the high bits (kept in the slot) and the low bits (the slot) both vary.
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        return h
    }

    /// The seq of `id`, if it is indexed.
    func seq(of id: String, hash: UInt64? = nil) -> Int? {
        let h = hash ?? IDIndex.hash(id)
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        let tag = h >> 32
        while true {
            let entry = table[slot]
            if entry == 0 { return nil }
            if entry >> 32 == tag {
                let seq = Int(entry & 0xFFFF_FFFF)
                if matches(seq, id) { return seq }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Indexes `id` as the next seq (`count + 1`); the caller has checked it is new.
    mutating func append(_ id: String, hash: UInt64? = nil) {
        let h = hash ?? IDIndex.hash(id)
        arena.append(contentsOf: id.utf8)
        ends.append(arena.count)
        if ends.count * 4 >= table.count * 3 { rehash(size: table.count * 2, ids: ends.count - 1) }
        insert(seq: ends.count, hash: h)
    }

    private mutating func insert(seq: Int, hash h: UInt64) {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while table[slot] != 0 { slot = (slot + 1) & mask }
        table[slot] = (h >> 32) << 32 | UInt64(seq)
    }

    /// Rebuilds the table with `size` slots, holding the ids of seq 1...`ids` (hashed again from the arena).
    private mutating func rehash(size: Int, ids: Int) {
        table = Array(repeating: 0, count: size)
        for seq in stride(from: 1, through: ids, by: 1) {
            let start = seq == 1 ? 0 : ends[seq - 2]
            insert(seq: seq, hash: IDIndex.hash(bytes: arena[start..<ends[seq - 1]]))
        }
    }

    /// Whether seq's id is exactly `id` (bytes equal: ids are ASCII).
    private func matches(_ seq: Int, _ id: String) -> Bool {
        let start = seq == 1 ? 0 : ends[seq - 2]
        return arena[start..<ends[seq - 1]].elementsEqual(id.utf8)
    }
}
