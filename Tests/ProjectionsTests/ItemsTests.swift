import Events
import Projections
import Testing

/// `items`: every number worked by hand on a small log.
@Suite("items: question analysis")
struct ItemsTests {
    /// q1, q2, q3 correctness of the ten finished attempts (a worked example:
    /// q1's other score is q2 + q3, and so on).
    static let q1 = [1, 1, 1, 1, 1, 0, 0, 0, 0, 1]
    static let q2 = [1, 1, 1, 1, 0, 1, 0, 1, 0, 1]
    static let q3 = [1, 1, 0, 1, 0, 0, 0, 0, 0, 0]
    /// Wrong choices of q1 in attempts 6...9.
    static let wrongQ1 = [5: 2, 6: 3, 7: 2, 8: 3]

    private static func answer(_ log: inout LogBuilder, _ at: String, _ user: String, _ attempt: String, _ q: String,
                               choice: Int, correct: Bool, ms: Int? = nil) {
        log.add(at, .answerSelected(AnswerSelected(attempt: attempt, question: q, choice: choice, correct: correct, ms: ms)),
                user: user)
    }

    /// Ten finished attempts (u-1 and u-2 both use the ids a1...a5), one
    /// abandoned after one answer, one in progress with a hint before its
    /// answer, one started the day before, a reset, and two submissions.
    static var log: LogBuilder {
        var log = LogBuilder()
        for i in 0..<10 {
            let user = i < 5 ? "u-1" : "u-2", attempt = "a\(i % 5 + 1)"
            let t = "2025-10-01T10:\(Day.pad(i, 2)):"
            log.start(t + "00+02:00", attempt, quiz: "Q", questions: 3, daily: false, user: user)
            answer(&log, t + "01+02:00", user, attempt, "q1", choice: q1[i] == 1 ? 1 : wrongQ1[i] ?? 0, correct: q1[i] == 1,
                   ms: 1000 * (i + 1))
            if i == 0 { answer(&log, t + "02+02:00", user, attempt, "q1", choice: 0, correct: false, ms: 99) }   // duplicate
            answer(&log, t + "03+02:00", user, attempt, "q2", choice: q2[i] == 1 ? 0 : 3, correct: q2[i] == 1)
            if i == 0 { log.add(t + "04+02:00", .hintUsed(HintUsed(attempt: attempt, question: "q2", hint: .reveal)), user: user) }
            answer(&log, t + "05+02:00", user, attempt, "q3", choice: q3[i] == 1 ? 2 : 0, correct: q3[i] == 1)
            log.finish(t + "06+02:00", attempt, user: user)
            if i == 2 { log.add("2025-10-01T10:02:30+02:00", .progressReset(ProgressReset(scope: .all)), user: "u-1") }
        }
        log.start("2025-10-01T11:00:00+02:00", "a11", quiz: "Q", questions: 3, daily: false, user: "u-3")
        answer(&log, "2025-10-01T11:00:01+02:00", "u-3", "a11", "q1", choice: 3, correct: false, ms: 500)
        log.add("2025-10-01T11:00:02+02:00", .quizAbandoned(AttemptEnded(attempt: "a11")), user: "u-3")
        log.start("2025-10-01T12:00:00+02:00", "a12", quiz: "Q", questions: 3, daily: false, user: "u-3")
        log.add("2025-10-01T12:00:01+02:00", .hintUsed(HintUsed(attempt: "a12", question: "q1", hint: .fiftyFifty)), user: "u-3")
        answer(&log, "2025-10-01T12:00:02+02:00", "u-3", "a12", "q1", choice: 1, correct: true, ms: 20000)
        // Started on 09-30 (its own offset), answered after midnight: a 09-30 attempt.
        log.start("2025-09-30T23:59:00+02:00", "a13", quiz: "Q", questions: 3, daily: false, user: "u-4")
        answer(&log, "2025-10-01T00:01:00+02:00", "u-4", "a13", "q1", choice: 2, correct: false, ms: 7)
        log.add("2025-10-01T00:02:00+02:00", .quizAbandoned(AttemptEnded(attempt: "a13")), user: "u-4")
        for (i, answers) in [[(0, true), (2, false)], [(1, false), (2, false)]].enumerated() {
            let items = answers.enumerated().map { SubmissionMade.Answer(question: "q\($0 + 1)", choice: $1.0, correct: $1.1) }
            log.add("2025-10-01T13:0\(i):00+02:00", .submissionMade(SubmissionMade(content: "L1", kind: .lesson, category: "reading",
                                                                                    answers: items)), user: "u-5")
        }
        return log
    }

    static func analysis(from: String? = "2025-10-01", to: String? = "2025-10-01") -> ItemAnalysis {
        var builder = ItemsBuilder(from: from.map(day), to: to.map(day))
        for record in log.records { builder.add(record) }
        return builder.analysis()
    }

    @Test("per question: answers, p_correct, choices, top wrong choice, discrimination, median ms, hinted")
    func questions() throws {
        let items = Self.analysis()
        let quiz = try #require(items.quizzes.first)
        #expect(items.quizzes.count == 1)
        #expect(quiz.questions.map(\.question) == ["q1", "q2", "q3"])
        let (q1, q2, q3) = (quiz.questions[0], quiz.questions[1], quiz.questions[2])
        // q1: 10 finished + a11 (wrong, 3) + a12 (right, after a hint); the duplicate and a13 (09-30) do not count.
        #expect(q1.answers == 12)
        #expect(q1.correct == 7)
        #expect(q1.pCorrect == 58)                                  // 700/12 = 58.3
        #expect(q1.choices.map { [$0.choice, $0.count] } == [[1, 7], [2, 2], [3, 3]])
        #expect(q1.topWrongChoice == 3)                             // 3 three times, 2 twice
        #expect(q1.medianMs == 5000)                                // 500, 1000 ... 10000, 20000: lower middle of 12
        #expect(q1.hinted == 1)                                     // a12; a1's hint came after its q2 answer
        // r = (10·8 − 6·10) / √((10·6 − 36)(10·16 − 100)) = 20/√1440 = 0.527
        #expect(q1.discrimination == "0.53")
        // q2: x = 1111010101, other = 2212100001; r = 17/√(21·69) = 0.447
        #expect(q2.discrimination == "0.45")
        #expect(q2.answers == 10 && q2.correct == 7 && q2.pCorrect == 70)
        #expect(q2.choices.map { [$0.choice, $0.count] } == [[0, 7], [3, 3]])
        #expect(q2.topWrongChoice == 3)
        #expect(q2.medianMs == nil)                                 // no answer carries ms
        #expect(q2.hinted == 0)
        // q3: x = 1101000000, other = 2222110102; r = 21/√(21·61) = 0.587
        #expect(q3.discrimination == "0.59")
        #expect(q3.pCorrect == 30)
    }

    @Test("per quiz: started, finished, abandoned, dropped after k answers; resets ignored")
    func quizzes() throws {
        let quiz = try #require(Self.analysis().quizzes.first)
        #expect([quiz.started, quiz.finished, quiz.abandoned] == [12, 10, 1])
        #expect(quiz.droppedAfter.map { [$0.answered, $0.attempts] } == [[1, 1]])
        let all = try #require(Self.analysis(from: nil, to: nil).quizzes.first)
        #expect([all.started, all.finished, all.abandoned] == [13, 10, 2])   // a13 is back
        #expect(all.droppedAfter.map { [$0.answered, $0.attempts] } == [[1, 2]])
        #expect(all.questions[0].answers == 13)
        #expect(all.questions[0].medianMs == 5000)                  // 7, 500, 1000 ... 10000, 20000: 7th of 13
        #expect(Self.analysis(from: "2025-09-30", to: "2025-09-30").quizzes.first?.started == 1)
    }

    @Test("submissions per content and question, without ms, hints or discrimination")
    func submissions() throws {
        let content = try #require(Self.analysis().contents.first)
        #expect(content.content == "L1" && content.submissions == 2)
        #expect(content.questions.map { [$0.answers, $0.correct, $0.pCorrect ?? -1, $0.topWrongChoice ?? -1] }
                == [[2, 1, 50, 1], [2, 0, 0, 2]])
        let json = String(decoding: Self.analysis().json, as: UTF8.self)
        #expect(json.contains(#"{"content":"L1","submissions":2,"questions":[{"question":"q1","answers":2,"correct":1,"p_correct":50,"choices":[{"choice":0,"count":1},{"choice":1,"count":1}],"top_wrong_choice":1},"#))
        #expect(json.contains(#""dropped_after":[{"answered":1,"attempts":1}]"#))
        #expect(json.contains(#""top_wrong_choice":3,"discrimination":0.53,"median_ms":5000,"hinted":1}"#))
    }

    @Test("discrimination: null under 10 finished attempts and without variance")
    func nullDiscrimination() {
        var log = LogBuilder()
        for i in 0..<10 {
            log.start("2025-10-01T10:00:00Z", "b\(i)", quiz: "R", questions: 2, daily: false)
            Self.answer(&log, "2025-10-01T10:00:01Z", "u-1", "b\(i)", "easy", choice: 0, correct: true)   // always right
            Self.answer(&log, "2025-10-01T10:00:02Z", "u-1", "b\(i)", "hard", choice: 0, correct: i % 2 == 0)
            if i < 9 { log.finish("2025-10-01T10:00:03Z", "b\(i)") }
        }
        var builder = ItemsBuilder()
        for r in log.records { builder.add(r) }
        let q = builder.analysis().quizzes[0].questions
        #expect(q.map(\.question) == ["easy", "hard"])
        #expect(q[0].discrimination == nil && q[1].discrimination == nil)   // 9 finished
        log.finish("2025-10-01T10:00:04Z", "b9")
        var again = ItemsBuilder()
        for r in log.records { again.add(r) }
        let q2 = again.analysis().quizzes[0].questions
        #expect(q2[0].discrimination == nil)                        // x has no variance
        #expect(q2[1].discrimination == nil)                        // its other score (easy) has none
    }

    /// x: q0's correctness; y: how many of q1...q3 are right (the rest unanswered).
    @Test("discrimination: exact halves round away from zero, both signs", arguments: [
        // n=10, Σx=2, Σy=14, Σxy=1, Σy²=34: r = (10 − 28)/√(16·144) = −18/48 = −0.375 → −0.38
        ([1, 0, 0, 1, 0, 0, 0, 0, 0, 0], [0, 3, 0, 1, 2, 1, 1, 3, 0, 3], "-0.38"),
        // n=10, Σx=4, Σy=8, Σxy=5, Σy²=16: r = (50 − 32)/√(24·96) = 18/48 = 0.375 → 0.38
        ([0, 0, 1, 0, 1, 0, 1, 1, 0, 0], [1, 1, 0, 0, 2, 0, 0, 3, 0, 1], "0.38"),
    ])
    func halves(x: [Int], y: [Int], expected: String) throws {
        var log = LogBuilder()
        for i in 0..<x.count {
            log.start("2025-10-01T10:00:00Z", "h\(i)", quiz: "H", questions: 4, daily: false)
            Self.answer(&log, "2025-10-01T10:00:01Z", "u-1", "h\(i)", "q0", choice: 0, correct: x[i] == 1)
            for k in 0..<y[i] { Self.answer(&log, "2025-10-01T10:00:02Z", "u-1", "h\(i)", "q\(k + 1)", choice: 0, correct: true) }
            log.finish("2025-10-01T10:00:03Z", "h\(i)")
        }
        var builder = ItemsBuilder()
        for r in log.records { builder.add(r) }
        let q0 = try #require(builder.analysis().quizzes.first?.questions.first)
        #expect(q0.question == "q0")
        #expect(q0.discrimination == expected)
    }
}
