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
