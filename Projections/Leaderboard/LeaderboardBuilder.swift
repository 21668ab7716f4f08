import Events

/// Folds a log into a ``Leaderboard``: each learner is folded by a
/// ``LearnerProjector`` and read as `state --day LAST` would show them (LAST:
/// the period's last day; resets apply), then ranked.
public struct LeaderboardBuilder: Sendable {
    private let period: Leaderboard.Period
    private let first: Day, last: Day
    private var learners: [ExactString: LearnerProjector] = [:]

    /// An empty leaderboard of the period that contains `day`.
    public init(period: Leaderboard.Period, containing day: Day) {
        self.period = period
        (first, last) = period.range(containing: day)
    }

    /// Folds one record of the log, in log order (newer-version lines are skipped).
    public mutating func add(_ record: Record) {
        guard case .event(let e) = record else { return }
        let user = ExactString(e.user)
        if learners[user] == nil { learners[user] = LearnerProjector(options: StateOptions(user: e.user)) }
        learners[user]?.apply(record)
    }

    /// The ranking by `measure`, without the learners of `excluded` (who take no rank),
    /// keeping the rows whose rank is at most `top` (all when nil).
    public func leaderboard(by measure: Leaderboard.Measure, excluding excluded: [String] = [], top: Int? = nil) -> Leaderboard {
        let excluded = Set(excluded.map(ExactString.init))
        var rows: [Leaderboard.Row] = []
        for (user, projector) in learners where !excluded.contains(user) {
            var finished = 0
            var mean = ScoreMean()
            for attempt in projector.book.attempts.values
            where attempt.isFinished && projector.book.counts(attempt) && attempt.day >= first && attempt.day <= last {
                finished += 1
                mean.add(score: attempt.score, questions: attempt.questions)
            }
            let value: Int?
            switch measure {
            case .finished: value = finished > 0 ? finished : nil
            case .percent: value = finished >= Leaderboard.minimumForPercent ? mean.percent : nil
            case .streak:
                let current = projector.state(day: last).streak.current
                value = current > 0 ? current : nil
            }
            if let value { rows.append(Leaderboard.Row(rank: 0, user: user.value, value: value, finished: finished)) }
        }
        rows.sort { $0.value != $1.value ? $0.value > $1.value : CodePoint.less($0.user, $1.user) }
        for i in rows.indices { rows[i].rank = i > 0 && rows[i].value == rows[i - 1].value ? rows[i - 1].rank : i + 1 }
        if let top { rows.removeAll { $0.rank > top } }
        return Leaderboard(period: period, first: first, last: last, measure: measure, rows: rows)
    }
}
