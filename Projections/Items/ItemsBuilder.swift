import Events

/// Folds the records of one or more logs, in log order, into an ``ItemAnalysis``.
///
/// Each user's quiz events go through an `AttemptsBook` (the one attempt
/// lifecycle: which attempt, its start day, first answers, hints before an
/// answer, how it ended). Like the report, it ignores `progress.reset`: answers
/// and attempts are activity. An attempt counts when its start day is in the
/// range; a submission when its own day is.
public struct ItemsBuilder: Sendable {
    fileprivate struct Key: Hashable, Sendable {
        var owner: ExactString
        var question: ExactString
    }

    /// What is added up per question while folding.
    fileprivate struct Tally: Sendable {
        var answers = 0
        var correct = 0
        var choices: [Int: Int] = [:]
        var wrong: [Int: Int] = [:]
        var ms: [Int] = []
        var hinted = 0
    }

    private let low: Int, high: Int
    private let from: Day?, to: Day?
    private var books: [ExactString: AttemptsBook] = [:]
    private var quizTallies: [Key: Tally] = [:]
    private var contentTallies: [Key: Tally] = [:]
    private var submissions: [ExactString: Int] = [:]

    /// An empty analysis of the attempts started, and submissions made, on days `from` ... `to` (nil: unbounded).
    public init(from: Day? = nil, to: Day? = nil) {
        self.from = from; self.to = to
        low = from?.ordinal ?? Int.min
        high = to?.ordinal ?? Int.max
    }

    private func inRange(_ day: Day) -> Bool { day.ordinal >= low && day.ordinal <= high }

    /// Folds one record, in log order; lines of a newer version are skipped.
    public mutating func add(_ record: Record) {
        guard case .event(let e) = record else { return }
        let user = ExactString(e.user)
        let step = books[user, default: AttemptsBook()].apply(e)
        switch step.effect {
        case .answered(let attempt, let answer):
            guard inRange(attempt.day), case .answerSelected(let selected) = e.event else { return }
            let key = Key(owner: ExactString(attempt.quiz), question: ExactString(answer.question))
            quizTallies[key, default: Tally()].count(choice: selected.choice, correct: answer.correct,
                                                     ms: selected.ms, hinted: answer.afterHint)
        case .submitted(let s):
            guard inRange(step.day) else { return }
            submissions[ExactString(s.content), default: 0] += 1
            for a in s.answers {
                let key = Key(owner: ExactString(s.content), question: ExactString(a.question))
                contentTallies[key, default: Tally()].count(choice: a.choice, correct: a.correct, ms: nil, hinted: false)
            }
        default:
            break
        }
    }

    /// The analysis of everything folded so far.
    public func analysis() -> ItemAnalysis {
        var quizzes: [ExactString: ItemAnalysis.Quiz] = [:]
        var drops: [ExactString: [Int: Int]] = [:]
        var pairs: [Key: [(x: Int, y: Int)]] = [:]
        for book in books.values {
            for attempt in book.attempts.values where inRange(attempt.day) {
                let quiz = ExactString(attempt.quiz)
                quizzes[quiz, default: ItemAnalysis.Quiz(quiz: attempt.quiz)].started += 1
                switch attempt.status {
                case .finished:
                    quizzes[quiz]?.finished += 1
                    for a in attempt.answers {
                        let x = a.correct ? 1 : 0
                        pairs[Key(owner: quiz, question: ExactString(a.question)), default: []].append((x, attempt.score - x))
                    }
                case .abandoned:
                    quizzes[quiz]?.abandoned += 1
                    drops[quiz, default: [:]][attempt.answered, default: 0] += 1
                case .inProgress:
                    break
                }
            }
        }
        var questions: [ExactString: [ItemAnalysis.Question]] = [:]
        for (key, tally) in quizTallies {
            var q = tally.question(key.question.value)
            q.medianMs = Self.lowerMedian(tally.ms)
            q.hinted = tally.hinted
            q.discriminationHundredths = Discrimination.hundredths(pairs[key] ?? [])
            questions[key.owner, default: []].append(q)
        }
        let quizRows = quizzes.sorted { $0.key < $1.key }.map { id, quiz -> ItemAnalysis.Quiz in
            var quiz = quiz
            quiz.droppedAfter = (drops[id] ?? [:]).sorted { $0.key < $1.key }
                .map { ItemAnalysis.DropOff(answered: $0.key, attempts: $0.value) }
            quiz.questions = (questions[id] ?? []).sorted { CodePoint.less($0.question, $1.question) }
            return quiz
        }
        var contentQuestions: [ExactString: [ItemAnalysis.Question]] = [:]
        for (key, tally) in contentTallies {
            contentQuestions[key.owner, default: []].append(tally.question(key.question.value))
        }
        let contents = submissions.sorted { $0.key < $1.key }.map { id, n in
            ItemAnalysis.Content(content: id.value, submissions: n,
                                 questions: (contentQuestions[id] ?? []).sorted { CodePoint.less($0.question, $1.question) })
        }
        return ItemAnalysis(from: from, to: to, quizzes: quizRows, contents: contents)
    }

    /// The lower middle of the values (the middle one of an odd count); nil if none.
    static func lowerMedian(_ values: [Int]) -> Int? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[(values.count - 1) / 2]
    }
}

extension ItemsBuilder.Tally {
    mutating func count(choice: Int, correct: Bool, ms: Int?, hinted: Bool) {
        answers += 1
        choices[choice, default: 0] += 1
        if correct { self.correct += 1 } else { wrong[choice, default: 0] += 1 }
        if let ms { self.ms.append(ms) }
        if hinted { self.hinted += 1 }
    }

    /// The row's counts, choices and most chosen wrong index (ties: the lowest).
    func question(_ id: String) -> ItemAnalysis.Question {
        var q = ItemAnalysis.Question(question: id)
        q.answers = answers
        q.correct = correct
        q.choices = choices.sorted { $0.key < $1.key }.map { ItemAnalysis.ChoiceCount(choice: $0.key, count: $0.value) }
        q.topWrongChoice = wrong.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
        return q
    }
}
