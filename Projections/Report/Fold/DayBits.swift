import Events

/// The days on which one user is counted active in the report: a set of day
/// ordinals, as bits of a window of 256 days placed at the user's first day
/// (a little before it), with an ``ActiveDays`` for any day outside the
/// window (a log spanning years stays exact and small).
///
/// Inserting a day of the window is a test and a set of one bit in the
/// user's own storage, where the sorted array costs a search, often an
/// insert in its middle (an attempt's events fall on its start day, so a
/// learner's days do not come in order) and a miss on its heap storage.
struct DayBits: Sendable {
    /// The window's first day (`Int.min` before the first insert).
    private var base = Int.min
    /// Days `base ..< base + 256`, 64 to a word, bit `k` of word `w` being day `base + 64 * w + k`.
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The days outside the window.
    private var outside = ActiveDays()

    /// No day.
    init() {}

    /// Adds `day`; false when it was there.
    @inline(__always)
    mutating func insert(_ day: Int) -> Bool {
        if base == Int.min { base = day &- 64 }
        let offset = day &- base
        guard offset >= 0, offset < 256 else { return outside.insert(Day(ordinal: day)) }
        let bit: UInt64 = 1 << UInt64(offset & 63)
        return withUnsafeMutableBytes(of: &bits) { words in
            let word = words.load(fromByteOffset: 8 * (offset >> 6), as: UInt64.self)
            guard word & bit == 0 else { return false }
            words.storeBytes(of: word | bit, toByteOffset: 8 * (offset >> 6), as: UInt64.self)
            return true
        }
    }

    /// Whether there is no day.
    var isEmpty: Bool { bits == (0, 0, 0, 0) && outside.isEmpty }

    /// Calls `body` with each day: the window's, ascending, then those outside it, ascending.
    func forEach(_ body: (Int) -> Void) {
        // `bits` is four words: the loads at 0, 8, 16 and 24 are inside it.
        withUnsafeBytes(of: bits) { words in
            for w in 0..<4 {
                var word = words.load(fromByteOffset: 8 * w, as: UInt64.self)
                while word != 0 {
                    body(base &+ 64 * w &+ word.trailingZeroBitCount)
                    word &= word &- 1
                }
            }
        }
        for day in outside.days { body(day.ordinal) }
    }
}
