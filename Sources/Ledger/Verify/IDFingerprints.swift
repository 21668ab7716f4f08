import CSHA256
import Events

/// The ids of a log being read, for the `duplicate_id` check, kept as
/// fingerprints: about 15 bytes an id whatever its length, and exact all the same.
///
/// Each id is kept as 48 bits of its ``IDHasher`` hash (keyed: nobody can
/// write ids that share one) and its position. A match of those bits is
/// confirmed by reading the earlier line back from the file
/// (``EarlierLines``) and comparing its id, so the answers are exact. Reads
/// back are rare: a true duplicate (which ends the read) or two ids sharing
/// 48 bits (about n² / 2^49 for n ids: once in about 560 reads of a log of
/// a million events, and then one line read again).
///
/// Layout: 64 segments, each an open-addressing table (linear probing, at
/// most 3/4 full) of 64-bit slots `low << 32 | position`, where `low` is the
/// hash's low 32 bits: they choose the segment and the home slot, so a segment
/// doubles without looking anywhere else, and one grows at a time (growing
/// never holds two copies of the whole table). The segments' slots are laid
/// out by size (``SlotPools``): every segment of 2^k slots lives in one
/// region for that size, on huge pages once it is large, so that a probe of a
/// table of several MiB walks a few 2 MiB pages, not thousands of 4 KiB ones.
/// The next 16 bits are kept by
/// position (`highs`) and read only when the stored bits match. The byte
/// offset of every 64th line is kept to find a line again (a read back scans
/// at most 63 lines past it).
///
/// Positions are 32-bit: at most 4,294,967,295 ids after `firstSeq`.
///
/// A class (the chain holds the only reference), its slots in memory it
/// manages, so that the calling thread's probe is loads and stores only;
/// its properties are used by that one thread, one access at a time, so
/// they go without the runtime's exclusivity checks (~280 instructions a line).
final class IDFingerprints: ChainIDs {
    typealias Failure = LedgerError

    private static let segmentBits = 6
    private static let segmentCount = 1 << segmentBits
    private static let markEvery = 64

    private struct Segment {
        /// `mask + 1` slots: 0 when empty, else `low << 32 | position` (in ``pools``).
        var slots: UnsafeMutablePointer<UInt64>
        var mask: Int
        var count = 0
    }

    private let segments: UnsafeMutablePointer<Segment>
    /// Where the segments' slots are.
    private let pools = SlotPools(segments: IDFingerprints.segmentCount)
    /// Bits 32-47 of the hash of the id at each position (position 1
    /// first), in blocks of 65,536 that never move (a growing array would
    /// hold two copies while it grows), each filled as ids come.
    @exclusivity(unchecked) private var highs: [UnsafeMutablePointer<UInt16>] = []
    private static let highsBlock = 1 << 16
    /// How many ids are kept.
    @exclusivity(unchecked) private(set) var count = 0
    /// `marks[k]`: the byte offset of the line at position `64k + 1`.
    @exclusivity(unchecked) private var marks: [Int] = []
    /// The seq of the first id kept: 1 for a whole log, the line after the
    /// head for a read resumed from a resume point. Seqs are positions shifted by `firstSeq - 1`.
    let firstSeq: Int
    /// Where lines are read back from.
    let lines: EarlierLines

    /// No ids; the first one kept will be line `firstSeq` of the file `lines` reads.
    ///
    /// With `expectedBytes` (the bytes of lines the read will see), the table
    /// starts at the size those bytes' lines would make it grow to
    /// (``initialSlots(forBytes:)``), so that a typical log is never rehashed;
    /// a log of shorter lines than guessed still grows as before.
    init(firstSeq: Int = 1, lines: EarlierLines, expectedBytes: Int = 0) {
        self.firstSeq = firstSeq
        self.lines = lines
        segments = .allocate(capacity: IDFingerprints.segmentCount)
        let size = IDFingerprints.initialSlots(forBytes: expectedBytes)
        for s in 0..<IDFingerprints.segmentCount {
            (segments + s).initialize(to: Segment(slots: pools.enter(s, slots: size), mask: size - 1))
        }
    }

    /// The bytes of a line the first size is guessed with (a log's lines are
    /// rarely shorter: a writer's envelope alone, with its `prev`, is ~200 bytes).
    static var guessedLineBytes: Int { 256 }
    /// The most slots a segment starts with (a table of 64 MiB); larger logs grow from there.
    static var largestInitialSlots: Int { 1 << 17 }

    /// A segment's first size (a power of two, at least 16) for a read of
    /// `bytes` bytes: as many slots as its share of the lines those bytes
    /// hold at ``guessedLineBytes`` would fill to 3/4, which is the size the
    /// table would have grown to.
    static func initialSlots(forBytes bytes: Int) -> Int {
        guard guessedLineBytes > 0 else { return 16 }
        let lines = max(bytes, 0) / guessedLineBytes
        let perSegment = lines / segmentCount + 1
        var size = 16
        while size < largestInitialSlots, perSegment * 4 > size * 3 { size *= 2 }
        return size
    }

    deinit {
        segments.deallocate()
        for block in highs { block.deallocate() }
    }

    func seq(of line: borrowing CheckedLine) throws(LedgerError) -> Int? {
        switch try find(line) {
        case .found(let position): position + firstSeq - 1
        case .empty: nil
        }
    }

    func insertIfNew(_ line: borrowing CheckedLine) throws(LedgerError) -> Int? {
        switch try find(line) {
        case .found(let position):
            return position + firstSeq - 1
        case .empty(let s, let slot):
            let position = count + 1
            guard position <= Int(UInt32.max) else {
                throw LedgerError(.damaged, path: lines.path,
                                  "line \(line.number): more than \(UInt32.max) lines in one read; the reader's id index cannot hold more")
            }
            if (position - 1) % IDFingerprints.markEvery == 0 { marks.append(line.offset) }
            let inBlock = count % IDFingerprints.highsBlock
            if inBlock == 0 { highs.append(.allocate(capacity: IDFingerprints.highsBlock)) }
            (highs[highs.count - 1] + inBlock).initialize(to: UInt16(truncatingIfNeeded: line.idHash >> 32))
            count = position
            let segment = segments + s
            segment.pointee.slots[slot] = line.idHash << 32 | UInt64(position)
            segment.pointee.count += 1
            if segment.pointee.count * 4 > (segment.pointee.mask + 1) * 3 { grow(segment) }
            return nil
        }
    }

    /// The segment `hash` belongs to.
    @inline(__always) private func segment(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash & 0xFFFF_FFFF) >> UInt64(32 - IDFingerprints.segmentBits))
    }

    /// Starts loading the slot where an id with this hash is looked for
    /// first: the table is too large for the caches, so a reader prefetches
    /// the slots of the lines a few ahead of the one it checks.
    @inline(__always) func prefetch(_ hash: UInt64) {
        let segment = segments[segment(hash)]
        pl_prefetch(segment.slots + (Int(truncatingIfNeeded: hash) & segment.mask))
    }

    private enum Probe { case found(Int), empty(Int, Int) }

    /// Where `line`'s id is, or the segment and empty slot where it would go.
    private func find(_ line: borrowing CheckedLine) throws(LedgerError) -> Probe {
        let low = line.idHash & 0xFFFF_FFFF
        let s = segment(line.idHash)
        let slots = segments[s].slots, mask = segments[s].mask
        var slot = Int(truncatingIfNeeded: low) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return .empty(s, slot) }
            if entry >> 32 == low {
                let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
                if high(position) == UInt16(truncatingIfNeeded: line.idHash >> 32), try idAt(position) == line.id {
                    return .found(position)
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// How many regions of slots there are, and how many are on huge pages (tests).
    var regionCounts: (all: Int, huge: Int) { pools.regionCounts }

    /// Bits 32-47 of the hash of the id at `position`.
    private func high(_ position: Int) -> UInt16 {
        highs[(position - 1) / IDFingerprints.highsBlock][(position - 1) % IDFingerprints.highsBlock]
    }

    /// The id of the line at `position`, read back from the file.
    private func idAt(_ position: Int) throws(LedgerError) -> LineID {
        let mark = (position - 1) / IDFingerprints.markEvery
        return try lines.id(ofLine: position + firstSeq - 1, scanningFrom: marks[mark],
                            whereLine: mark * IDFingerprints.markEvery + firstSeq)
    }

    /// Doubles a segment; its entries move by the low bits they hold.
    private func grow(_ segment: UnsafeMutablePointer<Segment>) {
        let old = segment.pointee.slots, oldCount = segment.pointee.mask + 1
        let mask = oldCount * 2 - 1
        let s = segment - segments
        let slots = pools.enter(s, slots: mask + 1)
        for k in 0..<oldCount where old[k] != 0 {
            var slot = Int(truncatingIfNeeded: old[k] >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = old[k]
        }
        pools.leave(slots: oldCount)
        segment.pointee.slots = slots
        segment.pointee.mask = mask
    }
}

/// The slots of ``IDFingerprints``' segments, by size: all the segments of
/// 2^k slots are in one zeroed region (``TableMemory``) of `segments << k`
/// slots, segment `s` at slot `s << k`, made when the first segment grows to
/// that size and freed when the last one leaves it. So a segment's place
/// needs no bookkeeping, and the large regions are whole huge pages.
///
/// At most the regions of two sizes hold slots in use while segments grow
/// (the table grows by doubling: the older one empties as the newer fills).
final class SlotPools {
    private let segmentCount: Int
    /// `regions[k]`: the region of segments of 2^k slots, while one is there.
    private var regions: [TableMemory?] = []
    /// `users[k]`: how many segments are in `regions[k]`.
    private var users: [Int] = []

    init(segments: Int) { segmentCount = segments }

    /// The zeroed slots for segment `s` at `slots` slots (a power of two), in that size's region.
    func enter(_ s: Int, slots: Int) -> UnsafeMutablePointer<UInt64> {
        let k = slots.trailingZeroBitCount
        while regions.count <= k { regions.append(nil); users.append(0) }
        let region = regions[k] ?? TableMemory(zeroed: segmentCount * slots * MemoryLayout<UInt64>.stride)
        regions[k] = region
        users[k] += 1
        return region.bytes.bindMemory(to: UInt64.self, capacity: segmentCount * slots) + s * slots
    }

    /// A segment of `slots` slots moved out of its region (freed with its last user).
    func leave(slots: Int) {
        let k = slots.trailingZeroBitCount
        users[k] -= 1
        if users[k] == 0 { regions[k] = nil }
    }

    /// How many regions are there now, and how many of them were advised onto huge pages (tests).
    var regionCounts: (all: Int, huge: Int) {
        (regions.count { $0 != nil }, regions.count { $0?.isAdvisedHuge == true })
    }
}
