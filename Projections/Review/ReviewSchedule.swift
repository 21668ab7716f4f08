import Events

/// What to review, and when (`state`'s `review` member): every item the
/// learner answered, scheduled by FSRS-6 from their own answers.
///
/// ```swift
/// let review = projector.state().review
/// for item in review.dueItems { show(item.kind, item.source, item.question) }   // most overdue first
/// let tomorrow = review.upcoming(days: 1).first?.count ?? 0
/// ```
public struct ReviewSchedule: Sendable, Hashable {
    /// The desired retention the items are scheduled for.
    public var retention: Double
    /// Day D the schedule is read on; nil when the state has no day.
    public var day: Day?
    /// Every item, by due instant (most overdue first), then item, kind, source, question.
    public var items: [ReviewItem]
    /// The day's reviews within the budget: done, to ask, and over the budget.
    public var plan: ReviewPlan

    /// Makes a schedule.
    public init(retention: Double = FSRSScheduler.standard.desiredRetention, day: Day? = nil, items: [ReviewItem] = [],
                plan: ReviewPlan? = nil) {
        self.retention = retention; self.day = day; self.items = items
        self.plan = plan ?? ReviewPlan(items: [])
    }

    /// The items due on D (`due_day <= D`), most overdue first; none without a day.
    public var dueItems: [ReviewItem] {
        guard let day else { return [] }
        return items.filter { $0.dueDay <= day }
    }

    /// How many items are due on D (`review.due`).
    public var due: Int {
        guard let day else { return 0 }
        return items.reduce(0) { $0 + ($1.dueDay <= day ? 1 : 0) }
    }

    /// How many items come due on each of the `days` days after D (D+1 …
    /// D+days): those whose `due_day` is that day. Empty without a day.
    public func upcoming(days: Int) -> [(day: Day, count: Int)] {
        guard let day, days > 0 else { return [] }
        var counts = [Int](repeating: 0, count: days)
        for item in items {
            let k = item.dueDay.ordinal - day.ordinal - 1
            if k >= 0, k < days { counts[k] += 1 }
        }
        return counts.enumerated().map { (day.adding(days: $0.offset + 1), $0.element) }
    }
}
