import Projections

extension Leaderboard {
    /// For a terminal: a heading and an aligned table.
    public var text: String {
        let what: String
        switch measure {
        case .finished: what = "finished quizzes"
        case .percent: what = "mean score (at least \(Self.minimumForPercent) finished quizzes)"
        case .streak: what = "daily streak at \(last)"
        }
        let out = "Leaderboard, \(period.rawValue) \(first) to \(last), by \(what)\n"
        guard !rows.isEmpty else { return out + "No learner qualifies.\n" }
        // Ranked by finished quizzes, the value is the finished count: one column, not the same one twice.
        let alsoFinished = measure != .finished
        var table = Table([("rank", .right), ("user", .left), (measure.rawValue, .right)] + (alsoFinished ? [("finished", .right)] : []))
        for row in rows {
            table.row([String(row.rank), row.user, measure == .percent ? "\(row.value)%" : String(row.value)]
                      + (alsoFinished ? [String(row.finished)] : []))
        }
        return out + "\n" + table.text
    }
}
