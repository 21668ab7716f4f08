/// Summaries by key, listed in key order: the state of the per-quiz and
/// per-puzzle projections.
package struct SummaryTable<Key: Hashable & Comparable & Sendable, Summary: Hashable & Sendable>: Sendable, Hashable {
    /// The summary of each key.
    package var byKey: [Key: Summary] = [:]
    /// No summary yet.
    package init() {}

    /// The summaries in key order (code point order for string keys).
    package var sorted: [Summary] { byKey.sorted { $0.key < $1.key }.map(\.value) }
}
