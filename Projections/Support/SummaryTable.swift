/// Summaries by key, listed in key order: the state of the per-quiz and
/// per-puzzle projections.
package struct SummaryTable<Key: Hashable & Comparable & Sendable, Summary: Hashable & Sendable>: Sendable, Hashable {
    /// The summary of each key.
    package var byKey: [Key: Summary] = [:]
    /// No summary yet.
    package init() {}

    /// The summaries in key order (code point order for string keys).
    ///
    /// The keys are sorted apart from their summaries (the places of both
    /// in the dictionary's order): a move or a read of a (key, summary)
    /// pair copies the summary's references too.
    package var sorted: [Summary] {
        let keys = Array(byKey.keys), values = Array(byKey.values)
        return keys.withUnsafeBufferPointer { k in
            k.indices.sorted { k[$0] < k[$1] }.map { values[$0] }
        }
    }
}
