import Events

/// Folds the records of one or more logs, in order, into a ``Report``.
///
/// The rules are those of the learner's state: `AttemptLifecycle` decides
/// which attempt an event belongs to, the day it is on and which start and
/// answers count, and each user's streak at `to` is their `StreakFold`
/// (daily, through `to`) from the events on days up to `to`, resets included
/// (`ResetPolicy/through(_:)`). The counts are activity: a
/// `progress.reset` removes nothing from them. The every-learner skeleton
/// (users, learner logs, merging) is `AllLearnersFold`'s.
///
/// Only the storage is the report's own, so its memory does not grow with the
/// answers of the log: users, skills and attempt ids are stored once and
/// numbered (`ByteKeys`); an attempt keeps its questions answered only while
/// it runs, then just its id and start day (`AttemptTable`); the day counts
/// are an array indexed by day (`DayCounts`). ``ReportFold`` runs this fold
/// on a thread of its own.
///
/// A learner whose records are all folded at once (a ledger directory's
/// learner log, `foldLearner`) is then reduced to what the report still
/// needs of them, their streak's walk up to their last streak day, compacted
/// (`StreakEnds`): their
/// name, days and attempts are dropped, so such a fold's memory does not
/// grow with the number of learners.
package struct ReportBuilder: Sendable, AllLearnersFold {
    /// One user's part of the report.
    package struct Learner: Sendable {
        /// The report's days on which the user is counted active.
        var active = DayBits()
        /// The latest of them counted (most events fall on the day of the one before).
        var lastActive = Int.min
        /// Whether the user is active in the range (counted in the totals and the streaks).
        var inRange = false
        /// Their daily streak from the events on days up to `to`, but for the days in `finished`.
        private var fold: StreakFold
        /// Days that finished attempts made active (``StreakFold/activates(_:daily:counts:)``)
        /// not yet finished in `fold`: gathered here, in the learner's own
        /// storage, then finished in `fold` before anything else changes or
        /// reads it (its days are a set: the order does not matter). A finish
        /// into `fold` at once touched its days on the heap, a cache miss on
        /// most finished attempts of a large log.
        private var finished = DayBits()

        init(streak: StreakFold) { fold = streak }

        /// Their daily streak, every finished day in it.
        var streak: StreakFold {
            var streak = fold
            Self.finish(finished, into: &streak)
            return streak
        }

        /// A finished attempt on `day` (its start day).
        @inline(__always)
        mutating func finish(on day: Day, daily: Bool, counts: Bool) {
            if fold.activates(day, daily: daily, counts: counts) { _ = finished.insert(day.ordinal) }
        }

        /// A reset the attempt lifecycle applied (after the days finished before it).
        mutating func reset(_ scope: ProgressReset.Scope) {
            flush()
            fold.reset(scope)
        }

        /// A freeze grant or a pause (after the days finished before it).
        mutating func add(_ event: Event, on day: Day, seq: Int) {
            flush()
            fold.add(event, on: day, seq: seq)
        }

        private mutating func flush() {
            guard !finished.isEmpty else { return }
            Self.finish(finished, into: &fold)
            finished = DayBits()
        }

        /// Finishes each of `days` in `streak` (each one `activates` passed for; it still does).
        private static func finish(_ days: DayBits, into streak: inout StreakFold) {
            days.forEach { streak.finish(on: Day(ordinal: $0), daily: true, counts: true) }
        }
    }

    /// Right answers and answers of one skill.
    struct SkillCount: Sendable {
        var correct = 0
        var answers = 0
    }

    private let from: Day?
    private let to: Day?
    /// The range's bounds as ordinals (the extremes when not given).
    private let low: Int, high: Int
    /// The resets the streaks apply: those on days up to `to` (spec: the streaks at `to`).
    private let resets: ResetPolicy
    package var openLearners = OpenLearners<Learner>()
    private var attempts = AttemptTable()
    private var days = DayCounts()
    private var skillNames = ByteKeys()
    /// The skills by a cheap hash of their bytes (a log names a few dozen).
    private var skillCache = KeyCache(bits: 7)
    private var skills: [SkillCount] = []
    /// The users active in the range.
    private var activeUsers = 0
    /// The users active in the range that were closed (`closeLearners`), by
    /// their last run of streak days.
    private var closed = StreakEnds()
    /// The first and last day of any event of a known version (`Int.max`/`Int.min` before one).
    private var firstDay = Int.max, lastDay = Int.min

    /// Makes an empty report of the days `from` ... `to`; a bound left nil is
    /// the first (last) day with any event of a known version.
    package init(from: Day? = nil, to: Day? = nil) {
        self.from = from
        self.to = to
        low = from?.ordinal ?? Int.min
        high = to?.ordinal ?? Int.max
        resets = to.map(ResetPolicy.through) ?? .every
    }

    package func makeLearner() -> Learner { Learner(streak: StreakFold(mode: .daily, through: to)) }

    /// Counts a closed learner active in the range by their streak's walk.
    package mutating func close(_ learner: Learner, user: String) {
        if learner.inRange { closed.add(learner.streak) }
    }

    package mutating func forgetOpenLearners() { attempts.removeAll() }

    /// Folds one event of a log, any user's, in log order (a ``FoldEvent``:
    /// its ids read as bytes, no string made).
    package mutating func add(_ event: borrowing FoldEvent) {
        event.withView { add($0) }
    }

    /// Folds one event of a log, any user's, in log order (a reader's
    /// ``FoldEvent/View``: its ids read as bytes where they are).
    package mutating func add(_ e: FoldEvent.View) {
        let (number, isNew) = openLearners.users.number(e.user)
        if isNew { openLearners.parts.append(makeLearner()) }
        add(e, user: number)
    }

    /// Folds one event of user number `user`.
    package mutating func add(_ e: Envelope, user: Int32) {
        FoldEvent.make(e).withView { add($0, user: user) }
    }

    /// Folds one event of user number `user`: every reader's events come here
    /// (inlined where a view is added, the report's fold: one call an event less).
    @inline(__always)
    private mutating func add(_ e: FoldEvent.View, user: Int32) {
        attempts.user = user
        let (verdict, on) = AttemptLifecycle.apply(e, to: &attempts, resets: resets)
        let day = on.ordinal
        let counted = inRange(day)
        switch verdict {
        case .started:
            if counted { days.update(day) { $0.started += 1 } }
        case .answered:
            if counted { count(answer: e.correct, skill: e.skill, on: day) }
        case .hinted:
            if counted { days.update(day) { $0.hints += 1 } }
        case .ended(_, let finished, let counts):
            guard finished else { break }
            let ended = attempts.ended
            if counted {
                days.update(day) {
                    $0.finished += 1
                    $0.scores.add(score: ended.score, questions: ended.questions)
                }
            }
            openLearners.parts[Int(user)].finish(on: on, daily: ended.daily, counts: counts)
        case .reset(let scope):
            openLearners.parts[Int(user)].reset(scope)
        case .duplicateStart, .duplicateAnswer, .unknown, .afterEnd:
            break
        case .other:
            switch e.type {
            case .puzzleCompleted: if counted { days.update(day) { $0.puzzlesCompleted += 1 } }
            case .puzzleFailed: if counted { days.update(day) { $0.puzzlesFailed += 1 } }
            case .submissionMade: if counted { submit(e, on: day) }
            case .streakFreezeGranted, .streakPaused:
                if let event = e.payload { openLearners.parts[Int(user)].add(event, on: on, seq: e.seq) }
            default: break
            }
        }
        if day < firstDay { firstDay = day }
        if day > lastDay { lastDay = day }
        // The user's day counted already (most events): no call.
        if counted, Self.isActivity(e.type), openLearners.parts[Int(user)].lastActive != day { countActive(user, on: day) }
    }

    /// Whether an event makes its user active that day (`active_users`):
    /// every type but the grants (often a server's, not the learner's) and
    /// pauses (a plan).
    static func isActivity(_ type: EventType) -> Bool {
        switch type {
        case .hintsGranted, .streakFreezeGranted, .streakPaused: false
        default: true
        }
    }

    /// A `submission.made` on a day of the report: it and its answers count.
    /// Its answers are read by the view, in order (from the line's captures or the event read whole).
    private mutating func submit(_ e: FoldEvent.View, on day: Int) {
        days.update(day) { $0.submissions += 1 }
        e.forEachAnswer { correct, skill in count(answer: correct, skill: skill, on: day) }
    }

    /// Whether `day` is a day of the report (its rows are the range's days).
    @inline(__always)
    private func inRange(_ day: Int) -> Bool { day >= low && day <= high }

    /// Counts one answer (a first answer of an attempt or a submission answer) on a day of the report.
    private mutating func count(answer correct: Bool, skill: UnsafeRawBufferPointer?, on day: Int) {
        days.update(day) {
            $0.answers += 1
            if correct { $0.correct += 1 }
        }
        guard let skill else { return }
        let (index, inserted) = skillCache.insert(skill, into: &skillNames)
        if inserted { skills.append(SkillCount()) }
        skills.withUnsafeMutableBufferPointer { skills in
            skills[index].answers += 1
            if correct { skills[index].correct += 1 }
        }
    }

    /// Counts the user active on a day of the report (once a day) and in the range (once).
    private mutating func countActive(_ user: Int32, on day: Int) {
        guard openLearners.parts[Int(user)].lastActive != day else { return }
        openLearners.parts[Int(user)].lastActive = day
        if openLearners.parts[Int(user)].active.insert(day) { days.update(day) { $0.activeUsers += 1 } }
        if !openLearners.parts[Int(user)].inRange {
            openLearners.parts[Int(user)].inRange = true
            activeUsers += 1
        }
    }

    /// Adds what `other` folded (its learners closed): every count of the
    /// report is a sum over users, and each user's days, attempts and streak
    /// are their own.
    package mutating func absorb(_ other: ReportBuilder) {
        other.days.forEach { day, count in days.update(day) { $0.add(count) } }
        for i in 0..<other.skillNames.count {
            let (index, inserted) = Array(other.skillNames.key(i)).withUnsafeBytes { skillNames.insert($0) }
            if inserted { skills.append(SkillCount()) }
            skills[index].correct += other.skills[i].correct
            skills[index].answers += other.skills[i].answers
        }
        activeUsers += other.activeUsers
        closed.merge(other.closed)
        firstDay = min(firstDay, other.firstDay)
        lastDay = max(lastDay, other.lastDay)
    }

    /// The report of everything folded so far.
    package func report() -> Report {
        guard let (first, last) = range else {
            return Report(from: nil, to: nil, days: [], totals: Report.Counts(), skills: [], streaks: [])
        }
        var total = DayCount()
        var rows: [Report.DayRow] = []
        rows.reserveCapacity(last.ordinal - first.ordinal + 1)
        for ordinal in first.ordinal...last.ordinal {
            let count = days[ordinal]
            total.add(count)
            rows.append(Report.DayRow(day: Day(ordinal: ordinal), counts: count.counts))
        }
        total.activeUsers = activeUsers      // distinct over the range
        let order = (0..<skillNames.count).sorted { skillNames.key($0).lexicographicallyPrecedes(skillNames.key($1)) }
        let skillRows = order.map {
            Report.SkillRow(skill: String(decoding: skillNames.key($0), as: UTF8.self),
                            correct: skills[$0].correct, answers: skills[$0].answers)
        }
        // Every streak day is on or before `last` (only days up to `to` are
        // streak days; without `to`, `last` is the last day of any event).
        var ends = closed
        for learner in openLearners.parts where learner.inRange { ends.add(learner.streak) }
        let streaks = ends.distribution(at: last)
        return Report(from: first, to: last, days: rows, totals: total.counts, skills: skillRows, streaks: streaks)
    }

    /// The report's days: the given bounds, else the first and last day with a
    /// known event; a default that would fall on the wrong side of a given bound
    /// gives way to it. Nil with no bound and no event.
    private var range: (Day, Day)? {
        let firstDay = firstDay == Int.max ? nil : Day(ordinal: self.firstDay)
        let lastDay = lastDay == Int.min ? nil : Day(ordinal: self.lastDay)
        switch (from, to) {
        case let (f?, t?): return (f, t)
        case let (f?, nil): return (f, lastDay.map { max($0, f) } ?? f)
        case let (nil, t?): return (firstDay.map { min($0, t) } ?? t, t)
        case (nil, nil):
            guard let firstDay, let lastDay else { return nil }
            return (firstDay, lastDay)
        }
    }
}
