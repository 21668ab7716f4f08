import Events

/// Folds a log into a ``Leaderboard``: each learner as `state --day LAST`
/// would show them (LAST: the period's last day; resets apply), then ranked.
///
/// The rules are the learner state's: `AttemptLifecycle` decides which
/// attempt an event is of, its day, its first answers and score; an attempt
/// counts only if started after the learner's latest `quizzes`/`all` reset
/// (`AttemptLifecycle.counts`); a finished daily attempt that counts makes
/// its start day a streak day (`StreakProjection.activates`), and the streak
/// at LAST is `Streak.at` with their freeze grants and pauses (`StreakGrace`). Only the storage is the leaderboard's own, as
/// compact as the report's: per learner the finished attempts of the period
/// that count (a number and a `ScoreMean`) and the streak days up to LAST;
/// per attempt its id and start day once it has ended (`AttemptTable`). A
/// reset zeroes the learner's counts and streak days, since every attempt
/// started before it stops counting. A learner whose records are all folded
/// at once (a ledger directory's learner log, `foldLearner`) is then reduced
/// to their row's three values.
public struct LeaderboardBuilder: Sendable {
    /// One learner's standing so far.
    struct Learner: Sendable {
        /// Their quiz resets (`quizzes`/`all`) so far.
        var epoch = 0
        /// Finished attempts started in the period, after the latest reset.
        var finished = 0
        /// Their scores.
        var mean = ScoreMean()
        /// Days up to LAST with a finished daily attempt started after the latest reset.
        var streak = ActiveDays()
        /// Their freeze grants and pauses on days up to LAST (never reset, as in `state`).
        var grace = StreakGrace()
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
    private var users = UserNumbers()
    private var learners: [Learner] = []
    private var attempts = AttemptTable()
    /// The learners folded whole (`foldLearner`).
    private var closed: [Row] = []

    /// An empty leaderboard of the period that contains `day`.
    public init(period: Leaderboard.Period, containing day: Day) {
        self.period = period
        (first, last) = period.range(containing: day)
    }

    /// Folds one record of the log, in log order (newer-version lines are skipped).
    public mutating func add(_ record: Record) {
        guard case .event(let e) = record else { return }
        add(e, user: user(e.user))
    }

    /// The user's number, a new one for a new user.
    private mutating func user(_ name: String) -> Int32 {
        let (number, isNew) = users.number(name)
        if isNew { learners.append(Learner()) }
        return number
    }

    /// Folds one event of user number `user`.
    private mutating func add(_ e: Envelope, user: Int32) {
        let u = Int(user)
        attempts.user = user
        attempts.epoch = learners[u].epoch
        let (verdict, day) = AttemptLifecycle.apply(e, to: &attempts)
        switch verdict {
        case .ended(_, finished: true):
            let ended = attempts.ended
            // Started before the latest reset: it counts nowhere (state's `book.counts`).
            guard AttemptLifecycle.counts(startEpoch: ended.epoch, epoch: learners[u].epoch) else { return }
            if day >= first, day <= last {
                learners[u].finished += 1
                learners[u].mean.add(score: ended.score, questions: ended.questions)
            }
            // Days after LAST are not read by the streak at LAST.
            if day <= last, StreakProjection.activates(.dailyQuiz, daily: ended.daily, counts: true) {
                learners[u].streak.insert(day)
            }
        case .other:
            switch e.event {
            case .progressReset(let reset) where reset.scope.covers(.quizzes):
                // Any reset of the log, even after LAST, as `state --day LAST` applies it.
                learners[u].epoch += 1
                learners[u].finished = 0
                learners[u].mean = ScoreMean()
                learners[u].streak = ActiveDays()
            case .streakFreezeGranted, .streakPaused:
                // Days after LAST are not read by the streak at LAST.
                if day <= last { learners[u].grace.add(e.event, on: day, seq: e.seq) }
            default:
                break
            }
        default:
            break
        }
    }

    /// A learner's row: finished, percent (with at least ``Leaderboard/minimumForPercent``) and current streak at LAST.
    private func row(_ user: String, _ learner: Learner) -> Row {
        Row(user: user, finished: learner.finished,
            percent: learner.finished >= Leaderboard.minimumForPercent ? learner.mean.percent : nil,
            streak: Streak.at(last, activeDays: learner.streak, grace: learner.grace).current)
    }

    /// The ranking by `measure`, without the learners of `excluded` (who take no rank),
    /// keeping the rows whose rank is at most `top` (all when nil).
    public func leaderboard(by measure: Leaderboard.Measure, excluding excluded: [String] = [], top: Int? = nil) -> Leaderboard {
        let excluded = Set(excluded.map(ExactString.init))
        var everyone = closed
        for k in learners.indices { everyone.append(row(users.name(k), learners[k])) }
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
    /// Folds all the records of one learner (`records` returns their user
    /// id; each record's `user` is not read), then keeps only their row. The
    /// users folded before are closed too: fold no more of their records. On
    /// an error thrown by `records`, the builder holds part of the learner: discard it.
    package mutating func foldLearner<E: Error>(_ records: (_ add: (borrowing Record) -> Void) throws(E) -> String) throws(E) {
        closeLearners()
        learners.append(Learner())
        let user = try records { record in
            switch record {
            case .event(let e): self.add(e, user: 0)
            case .newer: break
            }
        }
        if let learner = learners.first { closed.append(row(user, learner)) }
        learners.removeAll(keepingCapacity: true)
        attempts.removeAll()
    }

    /// Reduces every user folded so far to their row and forgets their attempts.
    private mutating func closeLearners() {
        for k in learners.indices { closed.append(row(users.name(k), learners[k])) }
        learners.removeAll(keepingCapacity: true)
        users.removeAll()
        attempts.removeAll()
    }

    /// Adds `other`'s learners (no learner has records in both), for the
    /// same period. Attempts `other` still had running are not carried over:
    /// merge builders whose learners were all folded with `foldLearner`.
    package mutating func merge(_ other: LeaderboardBuilder) {
        closed += other.closed
        for k in other.learners.indices { closed.append(other.row(other.users.name(k), other.learners[k])) }
    }
}
