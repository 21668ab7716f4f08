/// Every id of a log with its seq, for the writer's `duplicate_id` check and
/// its idempotency lookups (readers keep ``IDFingerprints`` instead).
///
/// Ids are appended in seq order to one byte arena; an open-addressing table
/// maps a hash of the id to its seq, and a hit is confirmed by comparing the
/// bytes, so the answers are exact whatever the hash does. About 25 bytes an
/// id plus the id itself, against ~40 for a `[String: Int]`.
struct IDIndex: ChainIDs {
    typealias Failure = Never

    /// The ids' UTF-8, one after another, in seq order.
    private var arena: [UInt8] = []
    /// `ends[k]`: where the id of seq `k + 1` ends in `arena`.
    private var ends: [Int] = []
    /// Slots: 0 when empty, else `tag << 32 | position`, where the tag is the
    /// hash's high 32 bits and also places the entry (`tag & mask`), so the
    /// table grows without hashing the ids again. (A log of more than 2^32
    /// lines would need wider slots.)
    private var table: [UInt64] = Array(repeating: 0, count: 1024)

    /// The seq of the first indexed id: 1 for a whole log, the line after
    /// the head for a read resumed from a resume point. Entries hold positions
    /// (1-based, in `ends`); seqs are positions shifted by `firstSeq - 1`.
    private let firstSeq: Int

    /// An empty index whose first id will be line `firstSeq`.
    init(firstSeq: Int = 1) { self.firstSeq = firstSeq }

    /// How many ids are indexed.
    var count: Int { ends.count }

    /// The hash the index files `id` under (the one ``CheckedLine/idHash`` holds).
    static func hash(_ id: String) -> UInt64 { IDHasher().hash(id) }

    /// The hash of an id's UTF-8 bytes (the same as ``hash(_:)`` of the id).
    static func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { IDHasher().hash(UnsafeRawBufferPointer(bytes)) }

    func seq(of line: borrowing CheckedLine) -> Int? { line.id.withBytes { seq(of: $0, hash: line.idHash) } }

    mutating func insertIfNew(_ line: borrowing CheckedLine) -> Int? { line.id.withBytes { insertIfNew($0, hash: line.idHash) } }

    /// The seq of `id`, if it is indexed; `hash`, when given, is ``hash(_:)`` of it.
    func seq(of id: String, hash: UInt64? = nil) -> Int? { Self.withUTF8(id) { seq(of: $0, hash: hash ?? IDIndex.hash(id)) } }

    /// Indexes `id` as the next seq (`count + 1`); the caller has checked it is new. `hash`, when given, is ``hash(_:)`` of it.
    mutating func append(_ id: String, hash: UInt64? = nil) {
        _ = Self.withUTF8(id) { insertIfNew($0, hash: hash ?? IDIndex.hash(id)) }
    }

    private static func withUTF8<R>(_ id: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var copy = id
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// The seq of the id `bytes` hashing to `hash`, if it is indexed.
    private func seq(of bytes: UnsafeRawBufferPointer, hash: UInt64) -> Int? {
        switch find(bytes, tag: hash >> 32) {
        case .found(let position): position + firstSeq - 1
        case .empty: nil
        }
    }

    /// The seq the id `bytes` already has; or, when it is new, indexes it as
    /// the next seq and returns nil. One probe sequence for both.
    private mutating func insertIfNew(_ bytes: UnsafeRawBufferPointer, hash: UInt64) -> Int? {
        let tag = hash >> 32
        switch find(bytes, tag: tag) {
        case .found(let position):
            return position + firstSeq - 1
        case .empty(let slot):
            arena.append(contentsOf: bytes)
            ends.append(arena.count)
            table[slot] = tag << 32 | UInt64(ends.count)
            if ends.count * 2 > table.count { grow() }
            return nil
        }
    }

    private enum Probe { case found(Int), empty(Int) }

    /// Where the id `bytes` is, or the empty slot where it would go.
    private func find(_ bytes: UnsafeRawBufferPointer, tag: UInt64) -> Probe {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: tag) & mask
        while true {
            let entry = table[slot]
            if entry == 0 { return .empty(slot) }
            if entry >> 32 == tag {
                let position = Int(entry & 0xFFFF_FFFF)
                if matches(position, bytes) { return .found(position) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Doubles the table; entries move by their tags.
    private mutating func grow() {
        let old = table
        table = Array(repeating: 0, count: old.count * 2)
        let mask = table.count - 1
        for entry in old where entry != 0 {
            var slot = Int(truncatingIfNeeded: entry >> 32) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = entry
        }
    }

    /// Whether the id at `position` is exactly `bytes`.
    private func matches(_ position: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = position == 1 ? 0 : ends[position - 2]
        return arena[start..<ends[position - 1]].elementsEqual(bytes)
    }
}
