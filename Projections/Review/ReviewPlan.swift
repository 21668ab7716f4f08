import Events

/// A day's reviews within a budget (`state`'s `review.budget`, `done`,
/// `today`, `more`; `progress-ledger review`; docs/projections.md, "review"):
/// no learner does 223 reviews in a day, so the day's plan asks at most
/// `budget` items, the ones the learner is most likely to have forgotten first.
///
/// - **Done** counts the items answered on D that had been answered before
///   D: reviews of things already met, in any quiz or submission. They count
///   against the budget ("12 of 20 done"); a question met for the first time
///   on D does not (it is new, not a review, as Anki keeps new cards apart).
/// - **Today** holds the items due on D (`due_day <= D`), lowest
///   retrievability on D first (FSRS's `(1 + factor t / S)^decay` after the
///   `t` whole calendar days since the latest review), ties in the schedule's
///   order, at most `budget - done` of them.
/// - **More** counts the items due on D beyond today's list.
///
/// ```swift
/// let plan = projector.state().review.plan
/// print("\(plan.done) of \(plan.budget ?? plan.done + plan.items.count) done")
/// for item in plan.items { ask(item.item ?? item.question, from: item.source) }
/// ```
public struct ReviewPlan: Sendable, Hashable {
    /// Items a day asks by default (`--budget`): see docs/projections.md for why 20.
    public static let defaultBudget = 20

    /// At most this many reviews a day, done ones included; nil for every due item (`--budget all`).
    public var budget: Int?
    /// Items answered on D that had been answered before D.
    public var done: Int
    /// The items to ask today: due on D, lowest retrievability first, at most `budget - done`.
    public var items: [ReviewItem]
    /// Items due on D that are not in `items` (over the budget).
    public var more: Int

    /// Makes a plan.
    public init(budget: Int? = ReviewPlan.defaultBudget, done: Int = 0, items: [ReviewItem] = [], more: Int = 0) {
        self.budget = budget; self.done = done; self.items = items; self.more = more
    }

    /// The plan of the `items` (in the schedule's order) on `day`. `seenBefore`
    /// says, for the item at an index, whether it was answered before `day`;
    /// `retrievability` gives an item's on `day`.
    static func on(_ day: Day?, budget: Int?, items: [ReviewItem], seenBefore: (Int) -> Bool,
                   retrievability: (ReviewItem) -> Double) -> ReviewPlan {
        guard let day else { return ReviewPlan(budget: budget) }
        var done = 0
        var due: [(r: Double, index: Int)] = []
        for (k, item) in items.enumerated() {
            if item.lastReview.day == day, seenBefore(k) { done += 1 }
            if item.dueDay <= day { due.append((retrievability(item), k)) }
        }
        due.sort { $0.r != $1.r ? $0.r < $1.r : $0.index < $1.index }
        let room = budget.map { max(0, $0 - done) } ?? due.count
        let asked = due.prefix(room).map { items[$0.index] }
        return ReviewPlan(budget: budget, done: done, items: asked, more: due.count - asked.count)
    }
}

extension ReviewPlan {
    /// `12 of 20 done, 8 to review (195 more due)`, for a person.
    public var summary: String {
        let budgetText = budget.map { "\(done) of \($0) done" } ?? "\(done) done"
        return budgetText + ", \(items.count) to review" + (more > 0 ? " (\(more) more due, over the budget)" : "")
    }
}
