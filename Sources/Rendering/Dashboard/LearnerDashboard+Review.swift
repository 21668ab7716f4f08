import Events
import Projections

extension LearnerDashboard {
    /// Bars in the review forecast: D (with everything overdue) and the 13 days after it.
    static let forecastDays = 14
    /// The card of today's reviews: `12 of 20 done`.
    var reviewCard: (String, String) {
        let plan = state.review.plan
        return ("reviews today", plan.budget.map { "\(plan.done) of \($0) done" } ?? "\(plan.done) done")
    }

    /// The 14-day forecast of reviews: today's plan (done and to do, within
    /// the budget: never the whole backlog), then the items due on each day
    /// after D (``ReviewSchedule/upcoming(days:)``).
    var reviewForecast: String {
        guard let d = state.day else { return "<p>No activity yet.</p>" }
        let plan = state.review.plan
        let counts = [(d, plan.done + plan.items.count)] + state.review.upcoming(days: Self.forecastDays - 1)
        let points = counts.map { day, n in
            let (_, m, dd) = day.components
            let when = day == d ? "\(day) (today's plan, \(plan.done) done; \(plan.more) more due over the budget)" : "\(day)"
            return SVGChart.Point(key: day.description, label: Day.pad(m, 2) + "-" + Day.pad(dd, 2),
                                  tooltip: "\(when): \(n) item\(n == 1 ? "" : "s") to review", value: n)
        }
        return SVGChart(id: "chart-review-forecast", title: "Reviews due, next \(Self.forecastDays) days", xTitle: "day",
                        yTitle: "items", points: points, style: .bars, yMax: nil).svg
    }

    /// Today's reviews within the budget (``ReviewPlan``): the ones most
    /// likely forgotten first, how many are done, and how many more are due.
    var reviewTable: String {
        let plan = state.review.plan
        var t = "<section><h2>To review today</h2>"
        let done = plan.budget.map { "\(plan.done) of \($0) reviews done today" } ?? "\(plan.done) reviews done today"
        guard !plan.items.isEmpty else {
            return t + "<p id=\"review-none\">Nothing to review today"
                + (state.review.items.isEmpty ? " (no answers yet)." : " (\(done)).") + "</p></section>\n"
        }
        t += "<p id=\"review-budget\">\(done); \(plan.items.count) to go, the ones you are most likely to have forgotten first.</p>"
        var table = Table(["question", "last seen in", "skill", "due", "reviews", "lapses"])
        for item in plan.items {
            table.row([item.item ?? item.question, "\(item.kind.rawValue) \(item.source) \(item.question)", item.skill ?? "–",
                       item.dueDay.description, String(item.reviews), String(item.lapses)])
        }
        t += table.html(id: "table-review")
        if plan.more > 0 {
            t += "<p id=\"review-more\">\(plan.more) more due, over today's budget: they wait for the coming days "
                + "(<code>progress-ledger review --budget all</code> lists them all).</p>"
        }
        return t + "</section>\n"
    }
}
