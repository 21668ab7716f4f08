/// How a review went, on FSRS's scale. A quiz answer has no grade, so the
/// ledger rates it from what the log says (docs/projections.md, "review"):
/// wrong is Again, right after a hint on that question of that attempt is
/// Hard, right is Good. Easy is never given from a log, but parameters fitted
/// elsewhere may use it.
public enum ReviewRating: Int, Sendable, Hashable, CaseIterable {
    /// Forgotten: a wrong answer. A lapse, after the item's first review.
    case again = 1
    /// Recalled with help: a right answer after a hint.
    case hard = 2
    /// Recalled: a right answer.
    case good = 3
    /// Recalled easily (not given from a log).
    case easy = 4
}
