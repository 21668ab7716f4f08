import Events
@testable import Projections

/// The question analysis as `docs/reports.md` words it, computed the long
/// way: every user's events through the learner state's own `AttemptsBook`
/// (whole attempts kept to the end of the log), every counted answer and
/// attempt collected in lists, then counted. The discrimination is the
/// Pearson correlation in floating point, rounded half away from zero.
/// Independent of `ItemsBuilder`'s storage (numbered ids, running slots,
/// sums as it goes), which the agreement tests hold to it.
enum ItemsModel {
    private struct Answer { var quiz: String; var question: String; var choice: Int; var correct: Bool; var ms: Int?; var hinted: Bool }

    static func analysis(_ records: [Record], from: Day? = nil, to: Day? = nil) -> ItemAnalysis {
        func inRange(_ day: Day) -> Bool { (from.map { day >= $0 } ?? true) && (to.map { day <= $0 } ?? true) }
        var books: [[UInt8]: AttemptsBook] = [:]
        var order: [[UInt8]] = []
        var answers: [Answer] = []
        var submissions: [(content: String, answers: [SubmissionMade.Answer])] = []
        for record in records {
            guard case .event(let e) = record else { continue }
            let user = Array(e.user.utf8)
            if books[user] == nil { order.append(user) }
            let step = books[user, default: AttemptsBook()].apply(e)
            switch step.effect {
            case .answered(let attempt, let answer) where inRange(attempt.day):
                guard case .answerSelected(let s) = e.event else { continue }
                answers.append(Answer(quiz: attempt.quiz, question: answer.question, choice: s.choice, correct: s.correct,
                                      ms: s.ms, hinted: answer.afterHint))
            case .submitted(let s) where inRange(step.day):
                submissions.append((s.content, s.answers))
            default:
                break
            }
        }
        let attempts = order.flatMap { books[$0]?.attempts.filter { inRange($0.day) } ?? [] }
        var quizzes: [ItemAnalysis.Quiz] = []
        for quiz in Set(attempts.map { ExactString($0.quiz) }).sorted() {
            let mine = attempts.filter { ExactString($0.quiz) == quiz }
            var row = ItemAnalysis.Quiz(quiz: quiz.value)
            row.started = mine.count
            row.finished = mine.filter { $0.status == .finished }.count
            let abandoned = mine.filter { $0.status == .abandoned }
            row.abandoned = abandoned.count
            let drops = Dictionary(grouping: abandoned, by: \.answered)
            row.droppedAfter = drops.keys.sorted().map { ItemAnalysis.DropOff(answered: $0, attempts: drops[$0]?.count ?? 0) }
            let given = answers.filter { ExactString($0.quiz) == quiz }
            for question in Set(given.map { ExactString($0.question) }).sorted() {
                let these = given.filter { ExactString($0.question) == question }
                var q = Self.row(question.value, these.map { ($0.choice, $0.correct) })
                let ms = these.compactMap(\.ms).sorted()
                q.medianMs = ms.isEmpty ? nil : ms[(ms.count - 1) / 2]
                q.hinted = these.filter(\.hinted).count
                let pairs = mine.filter { $0.status == .finished }.compactMap { attempt -> (Double, Double)? in
                    guard let a = attempt.answers.first(where: { ExactString($0.question) == question }) else { return nil }
                    let x = a.correct ? 1.0 : 0.0
                    return (x, Double(attempt.score) - x)
                }
                q.discriminationHundredths = discrimination(pairs)
                row.questions.append(q)
            }
            quizzes.append(row)
        }
        var contents: [ItemAnalysis.Content] = []
        for content in Set(submissions.map { ExactString($0.content) }).sorted() {
            let these = submissions.filter { ExactString($0.content) == content }
            let given = these.flatMap(\.answers)
            let questions = Set(given.map { ExactString($0.question) }).sorted().map { question in
                Self.row(question.value, given.filter { ExactString($0.question) == question }.map { ($0.choice, $0.correct) })
            }
            contents.append(ItemAnalysis.Content(content: content.value, submissions: these.count, questions: questions))
        }
        return ItemAnalysis(from: from, to: to, quizzes: quizzes, contents: contents)
    }

    private static func row(_ question: String, _ given: [(choice: Int, correct: Bool)]) -> ItemAnalysis.Question {
        var q = ItemAnalysis.Question(question: question)
        q.answers = given.count
        q.correct = given.filter(\.correct).count
        let choices = Dictionary(grouping: given, by: \.choice)
        q.choices = choices.keys.sorted().map { ItemAnalysis.ChoiceCount(choice: $0, count: choices[$0]?.count ?? 0) }
        let wrong = Dictionary(grouping: given.filter { !$0.correct }, by: \.choice).mapValues(\.count)
        // The most chosen wrong index; ties: the lowest.
        q.topWrongChoice = wrong.keys.sorted().reduce(nil as Int?) { best, k in
            guard let best else { return k }
            return (wrong[k] ?? 0) > (wrong[best] ?? 0) ? k : best
        }
        return q
    }

    /// Pearson's r × 100 over `pairs`, rounded half away from zero; nil under 10 pairs or without variance.
    /// In floating point, except at a half, decided exactly (the test logs' sums are small enough for `Int`).
    private static func discrimination(_ pairs: [(Double, Double)]) -> Int? {
        guard pairs.count >= ItemAnalysis.minimumForDiscrimination else { return nil }
        let n = Double(pairs.count)
        let mx = pairs.map(\.0).reduce(0, +) / n, my = pairs.map(\.1).reduce(0, +) / n
        let cov = pairs.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +)
        let vx = pairs.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +), vy = pairs.map { ($0.1 - my) * ($0.1 - my) }.reduce(0, +)
        guard vx > 1e-12, vy > 1e-12 else { return nil }
        let r100 = 100 * cov / (vx * vy).squareRoot()
        let k = r100.magnitude.rounded(.down)
        guard (r100.magnitude - k - 0.5).magnitude < 1e-6 else { return Int(r100.rounded(.toNearestOrAwayFromZero)) }
        // Near a half: n²·cov, n·vx and n·vy are integers; |r|·100 ≥ k + ½ ⇔ (200 n²cov)² ≥ (2k + 1)² (n vx)(n vy) n².
        let c = Int((n * n * cov).rounded()), a = Int((n * vx).rounded()), b = Int((n * vy).rounded()), m = Int(n)
        let odd = 2 * Int(k) + 1
        let up = (200 * c) * (200 * c) >= odd * odd * a * b * m * m
        let magnitude = Int(k) + (up ? 1 : 0)
        return cov < 0 ? -magnitude : magnitude
    }
}
