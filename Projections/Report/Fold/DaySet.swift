/// A set of days (ordinals) as 64-day words, for one user: the days the user
/// was counted active, or the days of their daily streak.
///
/// Sparse (a sorted list of the words in use), so a user of 60 days costs one
/// or two words whatever the days' dates; inserting a day at or after the
/// latest word, the usual case, touches only the last one.
struct DaySet: Sendable {
    private struct Word: Sendable {
        /// The word's first day, divided by 64 (rounded down).
        var key: Int
        /// Bit `d & 63` for each day `d` of the word in the set.
        var bits: UInt64
    }

    private var words: [Word] = []

    /// An empty set.
    init() {}

    /// Adds a day; returns false when it was already there.
    mutating func insert(_ day: Int) -> Bool {
        let key = day >> 6, bit = UInt64(1) << UInt64(day & 63)
        let i = position(key)
        if i < words.count, words[i].key == key {
            if words[i].bits & bit != 0 { return false }
            words[i].bits |= bit
            return true
        }
        words.insert(Word(key: key, bits: bit), at: i)
        return true
    }

    /// Whether `day` is in the set.
    func contains(_ day: Int) -> Bool {
        let key = day >> 6
        let i = position(key)
        return i < words.count && words[i].key == key && words[i].bits & (UInt64(1) << UInt64(day & 63)) != 0
    }

    /// Empties the set.
    mutating func removeAll() { words.removeAll(keepingCapacity: true) }

    /// The index of the word `key`, or where it would be inserted.
    private func position(_ key: Int) -> Int {
        guard let last = words.last else { return 0 }
        if last.key == key { return words.count - 1 }
        if last.key < key { return words.count }
        var lo = 0, hi = words.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if words[mid].key < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
