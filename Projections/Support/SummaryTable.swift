/// Summaries by key, listed in key order: the state of the per-quiz and
/// per-puzzle projections.
package struct SummaryTable<Key: Hashable & Comparable & Sendable, Summary: Hashable & Sendable>: Sendable, Hashable {
    /// The summary of each key.
    package var byKey: [Key: Summary] = [:]
    /// No summary yet.
    package init() {}

    /// The summaries in key order (code point order for string keys).
    ///
    /// The entries' places are sorted, not the entries: a move of a
    /// (key, summary) pair is a copy of both with their references
    /// (~15,000 instructions an entry for the 38 puzzles of a learner).
    package var sorted: [Summary] {
        let entries = Array(byKey)
        let order = entries.indices.sorted { entries[$0].key < entries[$1].key }
        return order.map { entries[$0].value }
    }
}
