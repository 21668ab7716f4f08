import Events

extension LearnerDashboard {
    /// Bars in the review forecast: D (with everything overdue) and the 13 days after it.
    static let forecastDays = 14
    /// Rows of the "To review today" table; the rest are counted below it.
    static let reviewRows = 10

    /// The 14-day forecast of reviews: how many items are due on D (overdue
    /// ones included), then on each day after D (``ReviewSchedule/upcoming(days:)``).
    var reviewForecast: String {
        guard let d = state.day else { return "<p>No activity yet.</p>" }
        let counts = [(d, state.review.due)] + state.review.upcoming(days: Self.forecastDays - 1)
        let points = counts.map { day, n in
            let (_, m, dd) = day.components
            let when = day == d ? "\(day) (today, overdue included)" : "\(day)"
            return SVGChart.Point(key: day.description, label: Day.pad(m, 2) + "-" + Day.pad(dd, 2),
                                  tooltip: "\(when): \(n) item\(n == 1 ? "" : "s") to review", value: n)
        }
        return SVGChart(id: "chart-review-forecast", title: "Reviews due, next \(Self.forecastDays) days", xTitle: "day",
                        yTitle: "items", points: points, style: .bars, yMax: nil).svg
    }

    /// Today's reviews, most overdue first: the first ``reviewRows`` of them.
    var reviewTable: String {
        let e = HTMLText.escape
        let due = state.review.dueItems
        var t = "<section><h2>To review today</h2>"
        guard !due.isEmpty else {
            return t + "<p id=\"review-none\">Nothing to review today"
                + (state.review.items.isEmpty ? " (no answers yet)." : ".") + "</p></section>\n"
        }
        t += "<table id=\"table-review\"><thead><tr><th>question</th><th>from</th><th>skill</th><th>due</th>"
            + "<th>reviews</th><th>lapses</th></tr></thead><tbody>"
        for item in due.prefix(Self.reviewRows) {
            t += "<tr><th scope=\"row\">\(e(item.question))</th><td>\(item.kind.rawValue) \(e(item.source))</td>"
                + "<td>\(item.skill.map(e) ?? "–")</td><td>\(item.dueDay)</td><td>\(item.reviews)</td><td>\(item.lapses)</td></tr>"
        }
        t += "</tbody></table>"
        if due.count > Self.reviewRows {
            t += "<p>… and \(due.count - Self.reviewRows) more (<code>progress-ledger review</code> lists them all).</p>"
        }
        return t + "</section>\n"
    }
}
