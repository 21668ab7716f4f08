import Events

/// The ids of a log being read, for the `duplicate_id` check, kept as
/// fingerprints: about 17 bytes an id whatever its length, and exact all the same.
///
/// Each id is kept as its 64-bit ``IDHasher`` hash (keyed: nobody can write
/// ids that share one) and its position. A match of the whole hash is
/// confirmed by reading the earlier line back from the file
/// (``EarlierLines``) and comparing its id, so the answers are exact. Reads
/// back are rare: a true duplicate (which ends the read) or two ids sharing a
/// 64-bit hash (about n² / 2^65 for n ids: once in millions of reads of a
/// log of a million events).
///
/// Layout: 64 segments, each an open-addressing table (linear probing, at
/// most 3/4 full) of 64-bit slots `high << 32 | position`, where `high` is
/// the hash's high 32 bits; the low 32 bits choose the segment and the home
/// slot, and are kept by position (`lows`) to compare in full and to place
/// the entries again when their segment doubles. Segments grow one at a time,
/// so growing never holds two copies of the whole table. The byte offset of
/// every 64th line is kept to find a line again (a read back scans at most
/// 63 lines past it).
///
/// Positions are 32-bit: at most 4,294,967,295 ids after `firstSeq`.
struct IDFingerprints: ChainIDs {
    typealias Failure = LedgerError

    private static let segmentBits = 6
    private static let markEvery = 64

    private struct Segment {
        /// 0 when empty, else `high << 32 | position`.
        var slots: [UInt64] = Array(repeating: 0, count: 16)
        var count = 0
    }

    private var segments = Array(repeating: Segment(), count: 1 << IDFingerprints.segmentBits)
    /// The low 32 bits of the hash of the id at each position (position 1 first).
    private var lows: [UInt32] = []
    /// `marks[k]`: the byte offset of the line at position `64k + 1`.
    private var marks: [Int] = []
    /// The seq of the first id kept: 1 for a whole log, the line after the
    /// head for a read resumed from a checkpoint. Seqs are positions shifted by `firstSeq - 1`.
    let firstSeq: Int
    /// Where lines are read back from.
    let lines: EarlierLines

    /// No ids; the first one kept will be line `firstSeq` of the file `lines` reads.
    init(firstSeq: Int = 1, lines: EarlierLines) {
        self.firstSeq = firstSeq
        self.lines = lines
    }

    /// How many ids are kept.
    var count: Int { lows.count }

    func seq(of line: borrowing CheckedLine) throws(LedgerError) -> Int? {
        switch try find(line) {
        case .found(let position): position + firstSeq - 1
        case .empty: nil
        }
    }

    mutating func insertIfNew(_ line: borrowing CheckedLine) throws(LedgerError) -> Int? {
        switch try find(line) {
        case .found(let position):
            return position + firstSeq - 1
        case .empty(let s, let slot):
            let position = lows.count + 1
            guard position <= Int(UInt32.max) else {
                throw LedgerError(.damaged, path: lines.path,
                                  "line \(line.number): more than \(UInt32.max) lines in one read; the reader's id index cannot hold more")
            }
            if (position - 1) % IDFingerprints.markEvery == 0 { marks.append(line.offset) }
            lows.append(UInt32(truncatingIfNeeded: line.idHash))
            segments[s].slots[slot] = (line.idHash >> 32) << 32 | UInt64(position)
            segments[s].count += 1
            if segments[s].count * 4 > segments[s].slots.count * 3 { grow(s) }
            return nil
        }
    }

    private enum Probe { case found(Int), empty(Int, Int) }

    /// Where `line`'s id is, or the segment and empty slot where it would go.
    private func find(_ line: borrowing CheckedLine) throws(LedgerError) -> Probe {
        let low = UInt32(truncatingIfNeeded: line.idHash)
        let high = line.idHash >> 32
        let s = Int(low >> UInt32(32 - IDFingerprints.segmentBits))
        let slots = segments[s].slots
        let mask = slots.count - 1
        var slot = Int(low) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return .empty(s, slot) }
            if entry >> 32 == high {
                let position = Int(entry & 0xFFFF_FFFF)
                if lows[position - 1] == low, try idAt(position) == line.id { return .found(position) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The id of the line at `position`, read back from the file.
    private func idAt(_ position: Int) throws(LedgerError) -> String {
        let mark = (position - 1) / IDFingerprints.markEvery
        return try lines.id(ofLine: position + firstSeq - 1, scanningFrom: marks[mark],
                            whereLine: mark * IDFingerprints.markEvery + firstSeq)
    }

    /// Doubles segment `s`; its entries move by their kept low bits.
    private mutating func grow(_ s: Int) {
        let old = segments[s].slots
        var slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry != 0 {
            var slot = Int(lows[Int(entry & 0xFFFF_FFFF) - 1]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
        segments[s].slots = slots
    }
}
