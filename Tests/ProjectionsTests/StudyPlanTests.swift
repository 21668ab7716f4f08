import Events
import Projections
import Testing

@Suite("Study plan")
struct StudyPlanTests {
    /// A submission of `results` for one skill, in order.
    func submit(_ log: inout LogBuilder, _ at: String, skill: String, category: String = "reading",
                _ results: [Bool], content: String = "l-x") {
        log.submit(at, content, category: category, answers: results.map { ($0, skill) })
    }

    func results(_ correct: Int, of total: Int) -> [Bool] { (0..<total).map { $0 < correct } }

    @Test("levels at exactly 80 and 60 (the rounded percent), 2 vs 3 answers, rounding 12.5 → 13", arguments: [
        (4, 5, 80, StudyPlan.Level.strength), (15, 20, 75, .developing), (3, 5, 60, .developing),
        (11, 20, 55, .weakness), (1, 8, 13, .weakness), (3, 3, 100, .strength), (2, 2, 100, .insufficient),
        (0, 2, 0, .insufficient),
    ])
    func levels(correct: Int, total: Int, percent: Int, level: StudyPlan.Level) {
        var log = LogBuilder()
        submit(&log, "2025-10-21T09:00:00Z", skill: "inference", results(correct, of: total))
        let skill = StudyPlan.SkillResult(category: "reading", skill: "inference", correct: correct, total: total)
        #expect(skill.percent == percent)
        #expect(skill.level == level)
        #expect(fold(log).studyPlan == StudyPlan(categories: [
            StudyPlan.Category(category: "reading", diagnosticCompleted: false, skills: [skill])]))
    }

    @Test("only the 20 most recent answers count, across sources; within a submission a later item is more recent")
    func window() {
        var log = LogBuilder()
        log.start("2025-10-20T09:00:00Z", "a-1", quiz: "r", questions: 5, daily: false, category: "reading")
        for q in 1...5 { log.answer("2025-10-20T09:0\(q):00Z", "a-1", "q\(q)", correct: false, skill: "inference") }
        // 21 items: the first (wrong) is older than the other 20 (right).
        submit(&log, "2025-10-21T09:00:00Z", skill: "inference", [false] + Array(repeating: true, count: 20))
        #expect(fold(log).studyPlan.strengths == [
            StudyPlan.SkillResult(category: "reading", skill: "inference", correct: 20, total: 20)])
        // A learner who improves sees a weakness become a strength.
        var improving = LogBuilder()
        submit(&improving, "2025-10-20T09:00:00Z", skill: "vocab", results(0, of: 10))
        #expect(fold(improving).studyPlan.weaknesses.map(\.percent) == [0])
        submit(&improving, "2025-10-21T09:00:00Z", skill: "vocab", results(12, of: 12))
        #expect(fold(improving).studyPlan.weaknesses == [])   // 12 of the last 20: 60
        #expect(fold(improving).studyPlan.categories.first?.skills.first?.level == .developing)
        submit(&improving, "2025-10-22T09:00:00Z", skill: "vocab", results(7, of: 7))
        #expect(fold(improving).studyPlan.strengths.map(\.percent) == [95])
    }

    @Test("an answer after a hint on the same question counts as wrong here, but the score keeps it")
    func hintAsWrong() {
        var log = LogBuilder()
        log.start("2025-10-21T09:00:00Z", "a-1", quiz: "r", questions: 3, daily: false, category: "reading")
        log.hint("2025-10-21T09:00:30Z", "a-1", "q1", .reveal)
        log.answer("2025-10-21T09:01:00Z", "a-1", "q1", skill: "inference")
        log.answer("2025-10-21T09:02:00Z", "a-1", "q2", skill: "inference")
        log.hint("2025-10-21T09:02:30Z", "a-1", "q2")          // after the answer: no effect on it
        log.answer("2025-10-21T09:03:00Z", "a-1", "q3", skill: "inference")
        log.finish("2025-10-21T09:04:00Z", "a-1")
        let state = fold(log)
        #expect(state.studyPlan.categories == [StudyPlan.Category(category: "reading", diagnosticCompleted: false, skills: [
            StudyPlan.SkillResult(category: "reading", skill: "inference", correct: 2, total: 3)])])
        #expect(state.quizzes.first?.bestScore == 3)
    }

    @Test("categories by name with null last; diagnostics; answers without a skill do not count")
    func categories() {
        var log = LogBuilder()
        log.start("2025-10-21T09:00:00Z", "a-1", quiz: "mixed", questions: 2, daily: false)   // no category
        log.answer("2025-10-21T09:01:00Z", "a-1", "q1", skill: "logic")
        log.answer("2025-10-21T09:02:00Z", "a-1", "q2")                                       // no skill
        log.start("2025-10-21T09:10:00Z", "a-2", quiz: "diag", questions: 1, daily: false, diagnostic: true)
        log.finish("2025-10-21T09:11:00Z", "a-2")                                            // diagnostic, no category
        log.start("2025-10-21T09:20:00Z", "a-3", quiz: "diag-m", questions: 1, daily: false, category: "math",
                  diagnostic: true)                                                           // not finished
        log.submit("2025-10-21T09:30:00Z", "w-1", category: "writing", diagnostic: true, answers: [(true, nil)])
        log.submit("2025-10-21T09:40:00Z", "r-1", category: "Reading", answers: [(true, "b"), (false, "a")])
        #expect(fold(log).studyPlan == StudyPlan(categories: [
            StudyPlan.Category(category: "Reading", diagnosticCompleted: false, skills: [
                StudyPlan.SkillResult(category: "Reading", skill: "a", correct: 0, total: 1),
                StudyPlan.SkillResult(category: "Reading", skill: "b", correct: 1, total: 1)]),
            StudyPlan.Category(category: "writing", diagnosticCompleted: true, skills: []),
            StudyPlan.Category(category: nil, diagnosticCompleted: true, skills: [
                StudyPlan.SkillResult(category: nil, skill: "logic", correct: 1, total: 1)]),
        ]))
    }

    @Test("strengths and weaknesses order: percent, then total descending, then skill, then category (null first)")
    func ranking() {
        var log = LogBuilder()
        submit(&log, "2025-10-21T09:00:00Z", skill: "s", category: "b", results(4, of: 4))
        submit(&log, "2025-10-21T09:01:00Z", skill: "s", category: "a", results(4, of: 4))
        submit(&log, "2025-10-21T09:02:00Z", skill: "r", category: "c", results(4, of: 4))
        submit(&log, "2025-10-21T09:03:00Z", skill: "t", category: "a", results(5, of: 5))
        submit(&log, "2025-10-21T09:04:00Z", skill: "u", category: "a", results(4, of: 5))
        log.start("2025-10-21T09:05:00Z", "a-1", quiz: "x", questions: 4, daily: false)
        for q in 1...4 { log.answer("2025-10-21T09:05:0\(q)Z", "a-1", "q\(q)", skill: "s") }
        submit(&log, "2025-10-21T09:10:00Z", skill: "w", category: "a", results(1, of: 4))
        submit(&log, "2025-10-21T09:11:00Z", skill: "v", category: "a", results(1, of: 4))
        submit(&log, "2025-10-21T09:12:00Z", skill: "v", category: "b", results(0, of: 3))
        submit(&log, "2025-10-21T09:13:00Z", skill: "x", category: "b", results(2, of: 8))
        let plan = fold(log).studyPlan
        #expect(plan.strengths.map { "\($0.skill)/\($0.category ?? "null")" }
            == ["t/a", "r/c", "s/null", "s/a", "s/b", "u/a"])
        #expect(plan.weaknesses.map { "\($0.skill)/\($0.category ?? "null")" }
            == ["v/b", "x/b", "v/a", "w/a"])
        #expect(plan.categories.first { $0.category == "a" }?.weaknesses.map(\.skill) == ["v", "w"])
    }

    @Test("resets per scope: quizzes clears quiz answers, submissions clears submission answers, each keeping the other's window")
    func resets() {
        var log = LogBuilder()
        submit(&log, "2025-10-20T09:00:00Z", skill: "k", results(20, of: 20))
        log.start("2025-10-20T10:00:00Z", "a-1", quiz: "x", questions: 20, daily: false, category: "reading",
                  diagnostic: true)
        for q in 1...20 { log.answer("2025-10-20T10:00:00Z", "a-1", "q\(q)", correct: false, skill: "k") }
        log.finish("2025-10-20T10:30:00Z", "a-1")
        #expect(fold(log).studyPlan.weaknesses.map(\.percent) == [0])
        #expect(fold(log).studyPlan.categories.first?.diagnosticCompleted == true)
        log.reset("2025-10-21T09:00:00Z", .quizzes)
        #expect(fold(log).studyPlan == StudyPlan(categories: [StudyPlan.Category(
            category: "reading", diagnosticCompleted: false,
            skills: [StudyPlan.SkillResult(category: "reading", skill: "k", correct: 20, total: 20)])]))
        log.reset("2025-10-21T09:01:00Z", .submissions)
        #expect(fold(log).studyPlan == StudyPlan())
    }

    @Test("recommended: for each weakness in order, catalog contents not mastered (score >= 80), at most 5, no repeats")
    func recommended() {
        var log = LogBuilder()
        submit(&log, "2025-10-21T09:00:00Z", skill: "vocab", results(0, of: 5), content: "l-9")
        submit(&log, "2025-10-21T09:01:00Z", skill: "grammar", results(1, of: 5), content: "l-8")
        log.submit("2025-10-21T09:02:00Z", "l-2", answers: [(true, nil), (true, nil), (true, nil), (true, nil), (false, nil)])
        log.submit("2025-10-21T09:03:00Z", "l-3", answers: [(true, nil), (true, nil), (true, nil), (false, nil), (false, nil)])
        let catalog = Catalog(["vocab": ["l-1", "l-2", "l-3", "l-4"], "grammar": ["l-4", "l-5", "l-6", "l-7"],
                               "unused": ["l-0"]])
        #expect(fold(log, catalog: catalog).studyPlan.recommended == ["l-1", "l-3", "l-4", "l-5", "l-6"])
        #expect(fold(log).studyPlan.recommended == [])
        #expect(fold(log, catalog: Catalog([:])).studyPlan.recommended == [])
    }
}
