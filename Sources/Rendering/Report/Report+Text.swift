import Events
import Projections

extension Report {
    /// The report for a person at a terminal: aligned tables of the days with
    /// a totals row, the skills, and the streak distribution.
    public var text: String {
        guard let from, let to else { return "No events: the report is empty.\n" }
        var out = "Report \(from) to \(to): \(days.count) day\(days.count == 1 ? "" : "s"), "
            + "\(totals.activeUsers) active user\(totals.activeUsers == 1 ? "" : "s")\n\n"
        out += dayTable([
            ("day", .left), ("users", .right), ("started", .right), ("finished", .right), ("completed", .right),
            ("mean score", .right), ("answers", .right), ("accuracy", .right), ("hints", .right),
            ("puzzles solved", .right), ("puzzles failed", .right), ("submissions", .right),
        ]).text
        out += "\nusers: active users (not counting hint grants); completed: finished of started;\n"
            + "mean score: of finished attempts; accuracy: of first answers and submission answers.\n"
        if !skills.isEmpty { out += "\n" + skillTable.text }
        var streakTable = Table([("daily streak at \(to)", .left), ("users", .right)])
        for b in streaks { streakTable.row(["\(b.current) day\(b.current == 1 ? "" : "s")", String(b.users)]) }
        out += "\n" + streakTable.text
        return out
    }

    /// The days, a row each, and the totals, under these headers (the text's and the HTML's differ).
    func dayTable(_ columns: [(String, Table.Alignment)]) -> Table {
        var table = Table(columns)
        for row in days { table.row([row.day.description] + row.counts.cells) }
        table.total(["total"] + totals.cells)
        return table
    }

    /// Accuracy per skill, a row each.
    var skillTable: Table {
        var table = Table([("skill", .left), ("correct", .right), ("answers", .right), ("accuracy", .right)])
        for s in skills { table.row([s.skill, String(s.correct), String(s.answers), Report.percent(s.accuracy)]) }
        return table
    }

    /// `68%`, or `–` for null.
    static func percent(_ value: Int?) -> String { value.map { "\($0)%" } ?? "–" }
}

extension Report.Counts {
    /// The cells of a row after the day, percentages with `%` and null as `–`
    /// (the text table's and the HTML table's).
    var cells: [String] {
        [String(activeUsers), String(quizzesStarted), String(quizzesFinished), Report.percent(completionRate),
         Report.percent(meanScorePercent), String(answers), Report.percent(accuracy), String(hintsUsed),
         String(puzzlesCompleted), String(puzzlesFailed), String(submissions)]
    }
}
