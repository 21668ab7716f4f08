import Events
import Projections

extension Report {
    /// The report as one self-contained HTML page: no script, no network, styles
    /// inline, charts as inline SVG; readable in light and dark mode.
    ///
    /// Charts: active users, completion rate and accuracy per day (one mark
    /// per day, an empty mark where a percentage has no data), accuracy per
    /// skill, and the streak distribution; then the tables.
    public var html: String {
        let e = HTMLText.escape
        let range = from.flatMap { f in to.map { "\(f) to \($0)" } } ?? "no events"
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<meta name=\"color-scheme\" content=\"light dark\">\n"
        h += "<title>Learning report: \(e(range))</title>\n<style>\n\(Report.style)</style>\n</head>\n<body>\n<main>\n"
        h += "<header><h1>Learning report</h1><p class=\"range\">\(e(range)) · \(days.count) day\(days.count == 1 ? "" : "s")"
            + " · \(totals.activeUsers) active user\(totals.activeUsers == 1 ? "" : "s")</p></header>\n"
        h += summaryCards
        h += "<section class=\"charts\">\n"
        h += figure("Active users per day", dayChart(id: "chart-active-users", title: "Active users per day", yTitle: "active users",
                             style: .bars, yMax: nil, unit: "") { c in (c.activeUsers, "\(c.activeUsers) active user\(c.activeUsers == 1 ? "" : "s")") },
                    caption: "Users with any event that day other than a hint grant.")
        h += figure("Completion rate per day", dayChart(id: "chart-completion-rate", title: "Completion rate per day", yTitle: "finished of started",
                             style: .line, yMax: 100, unit: "%") { c in
                        (c.completionRate, c.completionRate.map { "\($0)% (\(c.quizzesFinished) of \(c.quizzesStarted) attempts finished)" } ?? "no attempt started")
                    },
                    caption: "Attempts finished of attempts started, by the day each attempt started. Hollow dots: no attempt started.")
        h += figure("Accuracy per day", dayChart(id: "chart-accuracy", title: "Accuracy per day", yTitle: "answers right",
                             style: .line, yMax: 100, unit: "%") { c in
                        (c.accuracy, c.accuracy.map { "\($0)% of \(c.answers) answer\(c.answers == 1 ? "" : "s") right" } ?? "no answer")
                    },
                    caption: "First answers of quiz attempts and submission answers. Hollow dots: no answer that day.")
        let skillRows = skills.map {
            SVGBarList.Row(label: $0.skill, value: $0.accuracy, tooltip: "\($0.skill): \($0.correct) of \($0.answers) right")
        }
        h += figure("Accuracy per skill", SVGBarList(id: "chart-skills", title: "Accuracy per skill", xTitle: "answers right",
                               yTitle: "skill", rows: skillRows).svg,
                    caption: "Every counted answer that names a skill, over the whole range.")
        // A bar for every length from 0 to the longest, so the axis is spaced by value: a length
        // nobody has (6 between 5 and 7) is a gap, not hidden.
        let usersByLength = Dictionary(streaks.map { ($0.current, $0.users) }, uniquingKeysWith: +)
        let streakPoints = (0...(usersByLength.keys.max() ?? 0)).map { length in
            let users = usersByLength[length] ?? 0
            return SVGChart.Point(key: String(length), label: String(length),
                                  tooltip: "\(users) user\(users == 1 ? "" : "s") with a \(length)-day streak", value: users)
        }
        h += figure("Daily streaks at \(to?.description ?? "–")", SVGChart(id: "chart-streaks", title: "Daily streaks at \(to?.description ?? "–")",
                             xTitle: "current daily streak (days)", yTitle: "users", points: streakPoints, style: .bars).svg,
                    caption: "Each active user's current daily-quiz streak on the last day of the range.")
        h += "</section>\n"
        h += daysTable + skillsTable + streaksTable
        h += "<footer>Made by <code>progress-ledger report</code>. Days are the learners' local dates; an attempt's "
            + "answers, hints and end count on the day it started. A progress reset removes nothing from these counts.</footer>\n"
        h += "</main>\n</body>\n</html>\n"
        return h
    }

    private func dayChart(id: String, title: String, yTitle: String, style: SVGChart.Style, yMax: Int?, unit: String,
                          _ value: (Report.Counts) -> (Int?, String)) -> String {
        let points = days.map { row in
            let (v, tip) = value(row.counts)
            let (_, m, d) = row.day.components
            return SVGChart.Point(key: row.day.description, label: Day.pad(m, 2) + "-" + Day.pad(d, 2),
                                  tooltip: "\(row.day): \(tip)", value: v)
        }
        return SVGChart(id: id, title: title, xTitle: "day", yTitle: yTitle, points: points, style: style,
                        yMax: yMax, unit: unit).svg
    }

    private func figure(_ title: String, _ svg: String, caption: String) -> String {
        let e = HTMLText.escape
        return "<figure><h3>\(e(title))</h3>\(svg)<figcaption>\(e(caption))</figcaption></figure>\n"
    }

    private var summaryCards: String {
        let cards: [(String, String)] = [
            ("active users", String(totals.activeUsers)),
            ("quizzes started", String(totals.quizzesStarted)),
            ("completion rate", Report.percent(totals.completionRate)),
            ("mean score", Report.percent(totals.meanScorePercent)),
            ("answers", String(totals.answers)),
            ("accuracy", Report.percent(totals.accuracy)),
            ("hints used", String(totals.hintsUsed)),
            ("puzzles solved", String(totals.puzzlesCompleted)),
            ("submissions", String(totals.submissions)),
        ]
        return "<section class=\"cards\">" + cards.map {
            "<div class=\"card\"><div class=\"value\">\(HTMLText.escape($0.1))</div><div class=\"name\">\($0.0)</div></div>"
        }.joined() + "</section>\n"
    }

    private var daysTable: String {
        let table = dayTable(Report.dayColumns.map { ($0.replacingUnderscores, .left) })
        return "<section><h2>Per day</h2><div class=\"scroll\">" + table.html(id: "table-days") + "</div></section>\n"
    }

    private var skillsTable: String {
        "<section><h2>Skills</h2>" + skillTable.html(id: "table-skills") + "</section>\n"
    }

    private var streaksTable: String {
        var table = Table(["current streak (days)", "users"])
        for b in streaks { table.row([String(b.current), String(b.users)]) }
        return "<section><h2>Daily streaks at \(to?.description ?? "–")</h2>" + table.html(id: "table-streaks") + "</section>\n"
    }

    /// The page's style sheet: CSS variables for light mode, redefined for dark mode.
    static let style = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1c2230; --muted: #5a6375; --grid: #e4e7ed;
          --axis: #8b93a3; --card: #f4f6f9; --bar: #3566d6; --line: #d4582a; --empty: #9aa3b2; --stripe: #f7f8fa; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #12151b; --fg: #e6e9ef; --muted: #a1a9b8; --grid: #2a303a; --axis: #6f7886; --card: #1b2029;
            --bar: #78a2ff; --line: #ff9d66; --empty: #6f7886; --stripe: #181c23; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
        main { max-width: 1040px; margin: 0 auto; padding: 24px 20px 48px; }
        h1 { margin: 0 0 4px; font-size: 28px; }
        h2 { margin: 32px 0 12px; font-size: 19px; }
        h3 { margin: 0 0 6px; font-size: 16px; }
        .range, figcaption, footer { color: var(--muted); }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; margin: 20px 0 8px; }
        .card { background: var(--card); border-radius: 8px; padding: 10px 14px; }
        .card .value { font-size: 24px; font-weight: 600; font-variant-numeric: tabular-nums; }
        .card .name { color: var(--muted); font-size: 13px; }
        figure { margin: 28px 0 0; }
        figcaption { font-size: 13px; margin-top: 4px; }
        svg.chart { width: 100%; height: auto; display: block; }
        .chart .grid { stroke: var(--grid); stroke-width: 1; }
        .chart .axis { stroke: var(--axis); stroke-width: 1.2; }
        .chart text { fill: var(--muted); font-size: 12px; font-family: inherit; }
        .chart .axis-title { fill: var(--fg); font-size: 13px; font-weight: 600; }
        .chart .label { fill: var(--fg); font-size: 13px; }
        .chart .value { fill: var(--fg); font-size: 12px; }
        .chart rect.mark { fill: var(--bar); }
        .chart rect.mark.empty { fill: none; }
        .chart circle.mark { fill: var(--line); stroke: var(--bg); stroke-width: 1.5; }
        .chart circle.mark.empty { fill: var(--bg); stroke: var(--empty); stroke-width: 1.5; }
        .chart .series { fill: none; stroke: var(--line); stroke-width: 2; stroke-linejoin: round; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13px; }
        th, td { padding: 4px 10px; text-align: right; white-space: nowrap; }
        thead th { border-bottom: 1px solid var(--axis); font-weight: 600; white-space: normal; vertical-align: bottom; }
        tbody th, tfoot th, thead th:first-child { text-align: left; font-weight: 500; }
        thead th:first-child { font-weight: 600; }
        tbody tr:nth-child(even) { background: var(--stripe); }
        tfoot tr { border-top: 1px solid var(--axis); font-weight: 600; }
        code { font-size: 13px; }
        footer { margin-top: 40px; font-size: 13px; }

        """
}

extension String {
    /// `active_users` as `active users`.
    var replacingUnderscores: String { split(separator: "_").joined(separator: " ") }
}
