import Events
import Projections

extension LearnerDashboard {
    /// The page.
    public var html: String {
        let e = HTMLText.escape
        let title = "\(state.user) · \(state.day?.description ?? "no activity yet")"
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<meta name=\"color-scheme\" content=\"light dark\">\n"
        h += "<title>Progress: \(e(title))</title>\n<style>\n\(Report.style)\(Self.extraStyle)</style>\n</head>\n<body>\n<main>\n"
        h += "<header><h1>Your progress</h1><p class=\"range\">\(e(title))</p></header>\n"
        h += cards
        h += "<section class=\"charts\">\n"
        let days = scoreDays
        let dailyScores = scores.values.contains { $0.daily != nil }
        h += !dailyScores ? nothingYet("Daily quiz score", "no daily quiz finished; each one finished adds its score here, by day.")
            : figure("Daily quiz score", chart(id: "chart-score-daily", title: "Daily quiz score", days: days, yTitle: "best score") { d in
            let v = scores[d]?.daily
            return (v, v.map { "\(d): best daily quiz \($0)%" } ?? "\(d): no daily quiz finished")
        }, caption: "The best finished daily quiz of each day, percent right. Hollow dots: none finished.")
        h += scores.isEmpty ? nothingYet("Score, all quizzes", "no quiz finished; the mean score of each day's finished quizzes comes here.")
            : figure("Score, all quizzes", chart(id: "chart-score-all", title: "Score, all quizzes", days: days, yTitle: "mean score") { d in
            let s = scores[d]?.all
            let v = s?.percent
            return (v, v.map { "\(d): \($0)% mean of \(s?.count ?? 0) finished quiz\(s?.count == 1 ? "" : "zes")" } ?? "\(d): no quiz finished")
        }, caption: "The mean score of every quiz finished that day (by the day it started).")
        // Answers without a category are in the skills' chart only (a "no category" bar says nothing).
        let categories = state.studyPlan.categories.compactMap { c -> SVGBarList.Row? in
            guard let name = c.category else { return nil }
            let correct = c.skills.reduce(0) { $0 + $1.correct }, total = c.skills.reduce(0) { $0 + $1.total }
            return SVGBarList.Row(label: name, value: Percent.of(correct, total), tooltip: "\(name): \(correct) of \(total) right")
        }
        h += categories.isEmpty ? nothingYet("Accuracy by category", "no answer in a quiz with a category.")
            : figure("Accuracy by category", SVGBarList(id: "chart-categories", title: "Accuracy by category", xTitle: "answers right",
                                                        yTitle: "category", rows: categories).svg,
                    caption: "The study plan's answers: the 20 most recent per skill; an answer after a hint counts as wrong.")
        let skills = state.studyPlan.categories.flatMap { c in
            c.skills.map { s in
                SVGBarList.Row(label: s.skill + (c.category.map { " (\($0))" } ?? ""), value: s.percent,
                               tooltip: "\(s.skill): \(s.correct) of \(s.total) right · \(s.level.rawValue)")
            }
        }
        h += skills.isEmpty ? nothingYet("Accuracy by skill", "no answer with a skill.")
            : figure("Accuracy by skill", SVGBarList(id: "chart-skills", title: "Accuracy by skill", xTitle: "answers right",
                                                     yTitle: "skill", rows: skills).svg,
                    caption: "Strength: at least 3 answers and 80% or more; weakness: under 60%.")
        let learningDays = "\(state.stats.activeDays) learning day\(state.stats.activeDays == 1 ? "" : "s") so far"
        h += state.streak.runs.isEmpty && state.streak.freezes.granted == 0
            ? nothingYet("Active days", "no active day: a day is active with a finished daily quiz (\(learningDays)).")
            : figure("Active days", calendar, caption: "A day is active with a finished daily quiz; on a frozen day (❄) a streak "
                    + "freeze kept the streak alive; a paused day (‖) is part of a pause. Current streak "
                    + "\(state.streak.current) day\(state.streak.current == 1 ? "" : "s"), longest \(state.streak.longest); "
                    + "\(state.streak.freezes.held) freeze\(state.streak.freezes.held == 1 ? "" : "s") held.")
        let timeDays = timeRange
        h += timeByDay.values.allSatisfy({ $0 == 0 }) ? nothingYet("Time spent per day", "no time recorded: answers, puzzles and submissions add theirs.")
            : figure("Time spent per day", chart(id: "chart-time", title: "Time spent per day", days: timeDays, yTitle: "minutes",
                                                style: .bars, yMax: nil) { d in
            let n = timeByDay[d] ?? 0
            return (Int((Double(n) / 60e9).rounded()), "\(d): \(ExactSeconds(nanoseconds: n).readable)")
        }, caption: "Seconds of answers (ms), puzzles and submissions, in minutes.")
        h += figure("Reviews ahead", reviewForecast, caption: "Questions FSRS schedules for review on each day "
                    + "(today's bar: today's plan, at most the day's budget), from your own answers: wrong ones come back soon, "
                    + "right ones later and later.")
        h += "</section>\n"
        h += reviewTable + quizzesTable + puzzlesTable
        h += "<footer>Made by <code>progress-ledger state --format html</code> from the learner's event log. "
            + "Days are the learner's local dates; a quiz counts on the day it started.</footer>\n"
        // Inline SVG in HTML needs no namespace: the page names no URL at all.
        return (h + "</main>\n</body>\n</html>\n").replacing(" xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    }

    private var cards: String {
        let cards: [(String, String)] = [
            // The date never breaks ("2025-11-" / "04"): a span kept on one line.
            ("daily quiz <span class=\"date\">\(state.day?.description ?? "")</span>", state.dailyQuiz.button),
            ("current streak", "\(state.streak.current) day\(state.streak.current == 1 ? "" : "s")"),
            ("longest streak", "\(state.streak.longest)"),
            ("streak freezes held", "\(state.streak.freezes.held)"),
            ("quizzes completed", String(state.stats.quizzesCompleted)),
            ("accuracy", Report.percent(state.stats.accuracy)),
            ("hint balance", String(state.hints.balance)),
            ("hints used", String(state.hints.used)),
            ("time spent", state.stats.timeSpent.readable),
            ("learning days", String(state.stats.activeDays)),
            reviewCard,
        ]
        return "<section class=\"cards\" id=\"cards\">" + cards.map {
            "<div class=\"card\"><div class=\"value\">\(HTMLText.escape($0.1))</div><div class=\"name\">\($0.0)</div></div>"
        }.joined() + "</section>\n"
    }

    /// Every calendar day from the first scored day to D (or the last scored day).
    private var scoreDays: [Day] { Self.span(Array(scores.keys), to: state.day) }

    /// Every calendar day from the first day with time spent to D.
    private var timeRange: [Day] { Self.span(Array(timeByDay.keys), to: state.day) }

    private static func span(_ days: [Day], to end: Day?) -> [Day] {
        guard let first = days.min(), let last = [days.max(), end].compactMap({ $0 }).max() else { return [] }
        return (first.ordinal...max(first.ordinal, last.ordinal)).map(Day.init(ordinal:))
    }

    private func chart(id: String, title: String, days: [Day], yTitle: String, style: SVGChart.Style = .line,
                       yMax: Int? = 100, _ value: (Day) -> (Int?, String)) -> String {
        let points = days.map { d in
            let (v, tip) = value(d)
            let (_, m, dd) = d.components
            return SVGChart.Point(key: d.description, label: Day.pad(m, 2) + "-" + Day.pad(dd, 2), tooltip: tip, value: v)
        }
        return SVGChart(id: id, title: title, xTitle: "day", yTitle: yTitle, points: points, style: style,
                        yMax: yMax, unit: yMax == 100 ? "%" : "").svg
    }

    /// A chart's place when it would be empty: its title and what will come there.
    private func nothingYet(_ title: String, _ text: String) -> String {
        "<figure class=\"nothing-yet\"><h3>\(HTMLText.escape(title))</h3><p>Nothing yet: \(HTMLText.escape(text))</p></figure>\n"
    }

    private func figure(_ title: String, _ svg: String, caption: String) -> String {
        "<figure><h3>\(HTMLText.escape(title))</h3>\(svg)<figcaption>\(HTMLText.escape(caption))</figcaption></figure>\n"
    }

    /// The 12 weeks ending with D's week, a column per week and a row per
    /// weekday: active days filled, frozen days marked ❄, paused days striped ‖.
    private var calendar: String {
        guard let d = state.day else { return "<p>No activity yet.</p>" }
        let (_, last) = Leaderboard.Period.week.range(containing: d)
        let first = last.adding(days: -7 * Self.calendarWeeks + 1)
        let cell = 22.0, gap = 4.0, left = 40.0, top = 24.0
        let width = left + Double(Self.calendarWeeks) * (cell + gap) + 10, height = top + 7 * (cell + gap) + 10
        let f = HTMLText.number
        var s = "<svg id=\"chart-calendar\" class=\"chart calendar\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" "
            + "aria-labelledby=\"chart-calendar-title\" xmlns=\"http://www.w3.org/2000/svg\">"
            + "<title id=\"chart-calendar-title\">Active days, \(first) to \(last)</title>"
        for (i, name) in ["Mon", "", "Wed", "", "Fri", "", "Sun"].enumerated() where !name.isEmpty {
            s += "<text class=\"tick\" x=\"\(f(left - 6))\" y=\"\(f(top + Double(i) * (cell + gap) + cell * 0.7))\" text-anchor=\"end\">\(name)</text>"
        }
        s += "<g class=\"marks\">"
        for k in 0..<(7 * Self.calendarWeeks) {
            let day = first.adding(days: k)
            let (week, weekday) = (k / 7, k % 7)
            let x = left + Double(week) * (cell + gap), y = top + Double(weekday) * (cell + gap)
            if weekday == 0 {
                let (_, m, dd) = day.components
                if dd <= 7 { s += "<text class=\"tick\" x=\"\(f(x))\" y=\"\(f(top - 8))\">\(Self.months[m - 1])</text>" }
            }
            let on = day <= d && streakDays.active.contains(day), frozen = streakDays.frozen.contains(day)
            let paused = !on && streakDays.paused(day), future = day > d
            let kind = on ? "on" : frozen ? "frozen" : paused ? "paused" : nil
            let cls = "mark day" + (kind.map { " " + $0 } ?? "") + (future ? " future" : "")
            let what = on ? ": active" : frozen ? ": frozen (a streak freeze)" : paused ? (future ? ": paused (planned)" : ": paused") : ""
            s += "<rect class=\"\(cls)\" data-key=\"\(day)\" data-value=\"\(on ? 1 : 0)\" x=\"\(f(x))\" y=\"\(f(y))\" "
                + "width=\"\(f(cell))\" height=\"\(f(cell))\" rx=\"4\"><title>\(day)\(what)\(day == d ? " (today)" : "")</title></rect>"
            let (cx, cy) = (f(x + cell / 2), f(y + cell * 0.72))
            if frozen { s += "<text class=\"glyph\" x=\"\(cx)\" y=\"\(cy)\" text-anchor=\"middle\" aria-hidden=\"true\">❄</text>" }
            if paused { s += "<text class=\"glyph\" x=\"\(cx)\" y=\"\(cy)\" text-anchor=\"middle\" aria-hidden=\"true\">‖</text>" }
        }
        return s + "</g></svg>"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private var quizzesTable: String {
        var table = Table(["quiz", "attempts", "finished", "best", "latest", "fastest, start to finish"])
        for q in state.quizzes {
            table.row([q.quiz, String(q.attempts), String(q.finished), Report.percent(q.bestPercent), Report.percent(q.latestPercent),
                       q.fastestSeconds?.readable ?? "–"])
        }
        return "<section><h2>Quizzes</h2>" + table.html(id: "table-quizzes") + "</section>\n"
    }

    private var puzzlesTable: String {
        guard !state.puzzles.isEmpty else { return "<section><h2>Puzzles</h2><p class=\"nothing-yet\">Nothing yet: no puzzle played.</p></section>\n" }
        var table = Table(["puzzle", "encoding", "solved", "failed", "best time (s)"])
        for p in state.puzzles {
            table.row([p.puzzle, p.encoding, String(p.completed), String(p.failed), p.bestSeconds.map { Self.tenths($0.value) } ?? "–"])
        }
        return "<section><h2>Puzzles</h2>" + table.html(id: "table-puzzles") + "</section>\n"
    }

    /// Seconds to one decimal, always (`278.0`, `104.5`): a column reads alike.
    static func tenths(_ seconds: Double) -> String {
        let t = Int((seconds * 10).rounded())
        return "\(t / 10).\(t % 10)"
    }

    static let extraStyle = """
        .calendar { max-width: 420px; }
        .chart rect.day { fill: var(--grid); }
        .chart rect.day.on { fill: var(--bar); }
        .chart rect.day.future { fill: none; stroke: var(--grid); }
        .chart rect.day.frozen { fill: #8fd3f4; }
        .chart rect.day.paused { fill: none; stroke: var(--axis); stroke-dasharray: 3 2; }
        .chart text.glyph { fill: var(--fg); font-size: 13px; }
        .card .date { white-space: nowrap; }
        .nothing-yet p, p.nothing-yet { color: var(--muted); margin: 8px 0 16px; }

        """
}
