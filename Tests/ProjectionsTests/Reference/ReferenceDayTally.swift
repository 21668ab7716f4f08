@testable import Projections
import Events

/// What the report adds up for one day (or a range) before taking percentages.
struct ReferenceDayTally: Sendable {
    /// Right answers and answers of one skill.
    struct SkillTally: Sendable, Hashable {
        var correct = 0
        var answers = 0

        mutating func add(correct right: Bool) {
            answers += 1
            if right { correct += 1 }
        }
    }

    /// Users with an event other than `hints.granted`.
    var users: Set<ExactString> = []
    var started = 0
    var finished = 0
    var scores = ReferenceScoreMean()
    var answers = 0
    var correct = 0
    var hints = 0
    var puzzlesCompleted = 0
    var puzzlesFailed = 0
    var submissions = 0
    var skills: [ExactString: SkillTally] = [:]

    /// Counts one answer (a first answer of an attempt or a submission answer).
    mutating func answer(correct right: Bool, skill: String?) {
        answers += 1
        if right { correct += 1 }
        if let skill { skills[ExactString(skill), default: SkillTally()].add(correct: right) }
    }

    /// Adds another day's tally (users as a union).
    mutating func merge(_ other: ReferenceDayTally) {
        users.formUnion(other.users)
        started += other.started; finished += other.finished
        scores.merge(other.scores)
        answers += other.answers; correct += other.correct
        hints += other.hints
        puzzlesCompleted += other.puzzlesCompleted; puzzlesFailed += other.puzzlesFailed
        submissions += other.submissions
        for (skill, t) in other.skills {
            skills[skill, default: SkillTally()].correct += t.correct
            skills[skill, default: SkillTally()].answers += t.answers
        }
    }

    /// The report's counts, percentages taken.
    var counts: Report.Counts {
        var c = Report.Counts()
        c.activeUsers = users.count
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
