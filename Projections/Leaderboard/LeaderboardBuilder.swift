import Events

/// Folds a log into a ``Leaderboard``: each learner as `state --day LAST`
/// would show them (LAST: the period's last day; resets apply), then ranked.
///
/// The rules are the learner state's: `AttemptLifecycle` decides which
/// attempt an event is of, its day, its first answers and score, and whether
/// it counts (started after the learner's latest `quizzes`/`all` reset, any
/// reset of the log applying, as in `state --day LAST`); the streak at LAST is
/// the learner's `StreakFold` (daily, through LAST). Only the storage is
/// the leaderboard's own, as compact as the report's: per learner the
/// finished attempts of the period that count (a number and a `ScoreMean`)
/// and their streak; per attempt its id and start day once it has ended
/// (`AttemptTable`). A reset zeroes the learner's counts, since every attempt
/// started before it stops counting. A learner closed (a ledger directory's
/// learner log, `foldLearner`; the skeleton is `AllLearnersFold`'s) is
/// reduced to their row's three values.
public struct LeaderboardBuilder: Sendable {
    /// One learner's standing so far.
    package struct Learner: Sendable {
        /// Finished attempts started in the period, after the latest reset.
        var finished = 0
        /// Their scores.
        var mean = ScoreMean()
        /// Their daily streak, from the days up to LAST.
        var streak: StreakFold
    }

    /// A learner reduced to what the ranking reads.
    struct Row: Sendable {
        var user: String
        var finished: Int
        var percent: Int?
        var streak: Int
    }

    private let period: Leaderboard.Period
    private let first: Day, last: Day
    /// Users, numbered, and their standing.
    package var openLearners = OpenLearners<Learner>()
    private var attempts = AttemptTable()
    /// The learners folded whole (`foldLearner`).
    private var closed: [Row] = []

    /// An empty leaderboard of the period that contains `day`.
    public init(period: Leaderboard.Period, containing day: Day) {
        self.period = period
        (first, last) = period.range(containing: day)
    }

    package func makeLearner() -> Learner { Learner(streak: StreakFold(mode: .daily, through: last)) }

    /// Folds one event of user number `user`.
    package mutating func add(_ e: Envelope, user: Int32) {
        FoldEvent.make(e).withView { add($0, user: user) }
    }

    /// Folds one event of user number `user`, its ids as bytes.
    private mutating func add(_ e: FoldEvent.View, user: Int32) {
        let u = Int(user)
        attempts.user = user
        // Any reset of the log, even after LAST, as `state --day LAST` applies it.
        let (verdict, day) = AttemptLifecycle.apply(e, to: &attempts, resets: .every)
        switch verdict {
        case .ended(_, finished: true, let counts):
            // Started before the latest reset: it counts nowhere (as in `state`).
            guard counts else { return }
            let ended = attempts.ended
            if day >= first, day <= last {
                openLearners.parts[u].finished += 1
                openLearners.parts[u].mean.add(score: ended.score, questions: ended.questions)
            }
            openLearners.parts[u].streak.finish(on: day, daily: ended.daily, counts: counts)
        case .reset(let scope):
            if scope.covers(.quizzes) {
                openLearners.parts[u].finished = 0
                openLearners.parts[u].mean = ScoreMean()
            }
            openLearners.parts[u].streak.reset(scope)
        case .other:
            // Of the other events, the streak reads only the grants and pauses (whole in `payload`).
            if let event = e.payload { openLearners.parts[u].streak.add(event, on: day, seq: e.seq) }
        default:
            break
        }
    }

    /// A learner's row: finished, percent (with at least ``Leaderboard/minimumForPercent``) and current streak at LAST.
    private func row(_ user: String, _ learner: Learner) -> Row {
        Row(user: user, finished: learner.finished,
            percent: learner.finished >= Leaderboard.minimumForPercent ? learner.mean.percent : nil,
            streak: learner.streak.streak(at: last).current)
    }

    /// The ranking by `measure`, without the learners of `excluded` (who take no rank),
    /// keeping the rows whose rank is at most `top` (all when nil).
    public func leaderboard(by measure: Leaderboard.Measure, excluding excluded: [String] = [], top: Int? = nil) -> Leaderboard {
        let excluded = Set(excluded.map(ExactString.init))
        var everyone = closed
        for k in openLearners.parts.indices { everyone.append(row(openLearners.users.name(k), openLearners.parts[k])) }
        var rows: [Leaderboard.Row] = []
        for learner in everyone where !excluded.contains(ExactString(learner.user)) {
            let value: Int?
            switch measure {
            case .finished: value = learner.finished > 0 ? learner.finished : nil
            case .percent: value = learner.percent
            case .streak: value = learner.streak > 0 ? learner.streak : nil
            }
            if let value { rows.append(Leaderboard.Row(rank: 0, user: learner.user, value: value, finished: learner.finished)) }
        }
        rows.sort { $0.value != $1.value ? $0.value > $1.value : CodePoint.less($0.user, $1.user) }
        for i in rows.indices { rows[i].rank = i > 0 && rows[i].value == rows[i - 1].value ? rows[i - 1].rank : i + 1 }
        if let top { rows.removeAll { $0.rank > top } }
        return Leaderboard(period: period, first: first, last: last, measure: measure, rows: rows)
    }
}

extension LeaderboardBuilder: AllLearnersFold {
    /// Keeps a closed learner's row.
    package mutating func close(_ learner: Learner, user: String) { closed.append(row(user, learner)) }

    package mutating func forgetOpenLearners() { attempts.removeAll() }

    /// Adds `other`'s rows (its learners closed), for the same period.
    package mutating func absorb(_ other: LeaderboardBuilder) { closed += other.closed }
}
