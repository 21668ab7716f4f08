/// Summaries by key, listed in key order: the state of the per-quiz and
/// per-puzzle projections.
package struct SummaryTable<Key: Hashable & Comparable & Sendable, Summary: Hashable & Sendable>: Sendable, Hashable {
    /// The summary of each key.
    package var byKey: [Key: Summary] = [:]
    /// No summary yet.
    package init() {}

    /// The summaries in key order (code point order for string keys).
    package var sorted: [Summary] { byKey.valuesInKeyOrder() }
}

extension Dictionary where Key: Comparable {
    /// The values in key order (keys are unique: one order).
    ///
    /// The keys are put apart from the values, and their places sorted, each
    /// key compared where it is: sorting the (key, value) pairs themselves
    /// copied both pairs (their strings retained and released) at every
    /// comparison.
    func valuesInKeyOrder() -> [Value] {
        var keys: [Key] = []
        var values: [Value] = []
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        for (key, value) in self {
            keys.append(key)
            values.append(value)
        }
        var order = Array(keys.indices)
        keys.withUnsafeBufferPointer { k in order.sort { k[$0] < k[$1] } }
        return order.map { values[$0] }
    }
}
