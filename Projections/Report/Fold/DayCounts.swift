import Events

/// What the report adds up on one day, before taking percentages.
struct DayCount: Sendable {
    /// Users counted active that day (each once: see ``ReportBuilder``).
    var activeUsers = 0
    var started = 0
    var finished = 0
    var scores = ScoreMean()
    var answers = 0
    var correct = 0
    var hints = 0
    var puzzlesCompleted = 0
    var puzzlesFailed = 0
    var submissions = 0

    /// Adds another day's counts (`activeUsers` too: the caller replaces it
    /// when users must be distinct).
    mutating func add(_ other: DayCount) {
        activeUsers += other.activeUsers
        started += other.started; finished += other.finished
        scores.merge(other.scores)
        answers += other.answers; correct += other.correct
        hints += other.hints
        puzzlesCompleted += other.puzzlesCompleted; puzzlesFailed += other.puzzlesFailed
        submissions += other.submissions
    }

    /// The report's counts, percentages taken.
    var counts: Report.Counts {
        var c = Report.Counts()
        c.activeUsers = activeUsers
        c.quizzesStarted = started
        c.quizzesFinished = finished
        c.completionRate = Percent.of(finished, started)
        c.meanScorePercent = scores.percent
        c.answers = answers
        c.accuracy = Percent.of(correct, answers)
        c.hintsUsed = hints
        c.puzzlesCompleted = puzzlesCompleted
        c.puzzlesFailed = puzzlesFailed
        c.submissions = submissions
        return c
    }
}

/// The counts of every day, in an array indexed by the day's distance from
/// the first one kept.
///
/// Only the report's days are counted (days outside `--from`/`--to` never
/// reach it), so the array is never longer than the report's rows, plus the
/// room left to grow (at most half again).
struct DayCounts: Sendable {
    /// The ordinal of `counts[0]`.
    private var base = 0
    private var counts: [DayCount] = []

    /// Nothing counted.
    init() {}

    /// The counts of `day`; zero when nothing was counted on it.
    subscript(day: Int) -> DayCount {
        let i = day - base
        return i >= 0 && i < counts.count ? counts[i] : DayCount()
    }

    /// Calls `body` with each day kept and its counts, in day order.
    func forEach(_ body: (Int, DayCount) -> Void) {
        for (i, count) in counts.enumerated() { body(base + i, count) }
    }

    /// Changes the counts of `day` in place.
    @inline(__always)
    mutating func update(_ day: Int, _ body: (inout DayCount) -> Void) {
        var i = day - base
        if i < 0 || i >= counts.count {
            make(room: day)
            i = day - base
        }
        body(&counts[i])
    }

    /// Grows the array to hold `day`, with room to spare on that side so a
    /// run of days each beyond the last costs amortised constant time.
    private mutating func make(room day: Int) {
        if counts.isEmpty {
            base = day
            counts = [DayCount()]
            return
        }
        if day >= base + counts.count {
            let n = day - (base + counts.count) + 1
            counts.append(contentsOf: repeatElement(DayCount(), count: n))
        } else {
            let n = base - day + counts.count / 2
            counts.insert(contentsOf: repeatElement(DayCount(), count: n), at: 0)
            base -= n
        }
    }
}
