/// The `ms` of a question's counted answers, for their exact median: 2 bytes
/// a value under 65.5 s (most answers), 4 under 49 days, 8 past that.
struct MsValues: Sendable {
    private var short: [UInt16] = []
    private var long: [UInt32] = []
    private var other: [Int] = []

    /// Adds one answer's `ms`.
    mutating func add(_ ms: Int) {
        if let v = UInt16(exactly: ms) {
            short.append(v)
        } else if let v = UInt32(exactly: ms) {
            long.append(v)
        } else {
            other.append(ms)
        }
    }

    /// Adds another's values.
    mutating func add(_ values: MsValues) {
        short += values.short
        long += values.long
        other += values.other
    }

    /// The middle value, the lower middle for an even count (12 values: the
    /// 6th smallest); nil with none.
    var lowerMedian: Int? {
        if long.isEmpty, other.isEmpty { return Self.lowerMedian(short).map(Int.init) }
        return Self.lowerMedian(short.map(Int.init) + long.map(Int.init) + other)
    }

    /// The lower middle of `values` (the middle one of an odd count); nil if none.
    static func lowerMedian<T: Comparable>(_ values: [T]) -> T? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[(values.count - 1) / 2]
    }
}
