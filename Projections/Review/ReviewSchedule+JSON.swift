import Events

extension ReviewSchedule {
    /// `state`'s `review` member: `retention`, `due` (items due on D), the
    /// day's plan (`budget`, null for all; `done`; `today`, the items to ask;
    /// `more`, due beyond the budget), `items`.
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.number(&w, "retention", ReviewSchedule.literal(retention)); o.integer(&w, "due", due)
            o.integer(&w, "budget", plan.budget); o.integer(&w, "done", plan.done)
            o.array(&w, "today", plan.items) { w, item in item.write(to: &w) }
            o.integer(&w, "more", plan.more)
            o.array(&w, "items", items) { w, item in item.write(to: &w) }
        }
    }

    /// A double as JSON: Swift's shortest text that reads back as the same
    /// double (`0.9`, `2.3065`, `1e-05`), the same on every platform (the
    /// standard library's own algorithm, not C's `printf`); `null` if not finite.
    static func literal(_ x: Double) -> String? { x.isFinite ? x.description : nil }
}

extension ReviewItem {
    /// One item, members in docs/projections.md's order.
    func write(to w: inout JSONWriter) {
        w.object { w, o in
            o.string(&w, "item", item); o.string(&w, "kind", kind.rawValue); o.string(&w, "source", source); o.string(&w, "question", question)
            o.string(&w, "skill", skill)
            o.number(&w, "stability", ReviewSchedule.literal(stability)); o.number(&w, "difficulty", ReviewSchedule.literal(difficulty))
            o.integer(&w, "reviews", reviews); o.integer(&w, "lapses", lapses)
            o.timestamp(&w, "last_review", lastReview); o.timestamp(&w, "due", due); o.day(&w, "due_day", dueDay)
        }
    }
}
