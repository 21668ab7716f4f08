import Events

/// What `progress-ledger review` prints: the day's plan (``ReviewPlan``: the
/// items to ask on D within the budget, lowest retrievability first, each
/// with the quiz and question it was last seen in, how many are done and how
/// many more are due), and how many come due on each of the next days.
///
/// ```swift
/// let agenda = ReviewAgenda(projector.state(), limit: 20)
/// agenda.due          // what to review today
/// agenda.upcoming     // [(2025-10-22, 3), (2025-10-23, 0), ...]
/// ```
public struct ReviewAgenda: Sendable, Hashable {
    /// How many days `upcoming` covers by default: the week after D.
    public static let upcomingDays = 7

    /// The learner.
    public var user: String
    /// Day D; nil when the learner has no event and no day was given.
    public var day: Day?
    /// The items to ask on D: the plan's (due, lowest retrievability first,
    /// within the budget), at most `limit`.
    public var due: [ReviewItem]
    /// How many items are due on D, budget and `limit` aside.
    public var dueCount: Int
    /// The day's budget (nil: every due item).
    public var budget: Int?
    /// Items answered on D that had been answered before D (they count against the budget).
    public var done: Int
    /// Items scheduled in all.
    public var itemCount: Int
    /// The desired retention.
    public var retention: Double
    /// For each day after D, how many items come due on it.
    public var upcoming: [Upcoming]

    /// A day after D and the items that come due on it.
    public struct Upcoming: Sendable, Hashable {
        /// The day.
        public var day: Day
        /// Items whose `due_day` is that day.
        public var count: Int
    }

    /// The agenda of a state: at most `limit` due items (nil: all), and the
    /// `upcomingDays` days after D.
    public init(_ state: LearnerState, limit: Int? = nil, upcomingDays: Int = ReviewAgenda.upcomingDays) {
        let plan = state.review.plan
        user = state.user
        day = state.day
        due = Array(plan.items.prefix(limit ?? plan.items.count))
        dueCount = state.review.due
        budget = plan.budget
        done = plan.done
        itemCount = state.review.items.count
        retention = state.review.retention
        upcoming = state.review.upcoming(days: upcomingDays).map { Upcoming(day: $0.day, count: $0.count) }
    }

    /// `{"user","day","budget","done","due":[items as in state],"more","upcoming":[{"day","count"}]}`,
    /// no trailing newline: `more` the items due on D not in `due`.
    public var jsonBytes: [UInt8] {
        var w = JSONWriter()
        w.object { w, o in
            o.string(&w, "user", user); o.day(&w, "day", day)
            o.integer(&w, "budget", budget); o.integer(&w, "done", done)
            o.array(&w, "due", due) { w, item in item.write(to: &w) }
            o.integer(&w, "more", dueCount - due.count)
            o.objects(&w, "upcoming", upcoming) { w, u, next in u.day(&w, "day", next.day); u.integer(&w, "count", next.count) }
        }
        return w.bytes
    }

    /// For a person: a line per due item, then the week's counts.
    public var text: String {
        guard let day else { return "\(user) · no day (no events): nothing to review\n" }
        let budgetText = budget.map { "\(done) of \($0) done today" } ?? "\(done) done today"
        var lines = ["\(user) · \(day) · " + (dueCount == 0 ? "nothing due" : plural(dueCount, "item", "items") + " due")
                     + " · \(budgetText), \(due.count) to review below (lowest recall first)"
                     + (due.count < dueCount ? ", \(dueCount - due.count) more due" : "")
                     + " · \(plural(itemCount, "item", "items")) scheduled for \(ReviewSchedule.literal(retention) ?? "?") retention"]
        for item in due {
            let late = day.ordinal - item.dueDay.ordinal
            lines.append("  " + (item.item.map { "\($0), last seen in " } ?? "") + "\(item.kind.rawValue) \(item.source) \(item.question)"
                         + (item.skill.map { " (\($0))" } ?? "")
                         + " · due \(item.dueDay)" + (late > 0 ? ", \(plural(late, "day", "days")) overdue" : "")
                         + " · \(plural(item.reviews, "review", "reviews")), \(plural(item.lapses, "lapse", "lapses"))"
                         + " · stability \(Self.short(item.stability)) d, difficulty \(Self.short(item.difficulty))")
        }
        if !upcoming.isEmpty {
            lines.append("Coming up: " + upcoming.map { "\($0.day) \($0.count)" }.joined(separator: " · "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A stability or difficulty for a person: two decimals.
    static func short(_ x: Double) -> String {
        guard x.isFinite, x >= 0, x < 1e12 else { return ReviewSchedule.literal(x) ?? "?" }
        let hundredths = Int((x * 100).rounded())
        return "\(hundredths / 100).\(Day.pad(hundredths % 100, 2))"
    }
}
