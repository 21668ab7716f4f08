import Events

/// Folds the records of one or more logs, in log order, into an ``ItemAnalysis``.
///
/// Each user's quiz events go through the one attempt lifecycle
/// (`AttemptLifecycle`: which attempt, its start day, first answers, hints
/// before an answer, how it ended), over a storage of the analysis's own
/// (`ItemAttempts`). Like the report, it ignores `progress.reset`: answers
/// and attempts are activity. An attempt counts when its start day is in the
/// range; a submission when its own day is.
///
/// Memory does not grow with the answers of the log: each counted answer is
/// added to its question's counts as it is read, a finished attempt adds its
/// answers to the discrimination's sums when it finishes, and an attempt
/// keeps its id and start day once it has ended (about 40 bytes). Only the
/// `ms` values stay, 2 bytes each under 65.5 s, for the exact median. A learner whose
/// records are all folded at once (a ledger directory's learner log,
/// `foldLearner`) is then dropped whole.
package struct ItemsBuilder: Sendable {
    /// What is added up per question.
    struct Tally: Sendable {
        var answers = 0
        var correct = 0
        var choices: [Int: Int] = [:]
        var wrong: [Int: Int] = [:]
        var ms = MsValues()
        var hinted = 0
        /// Over the finished attempts that answered it.
        var pairs = Discrimination.Sums()
    }

    /// What is added up per quiz.
    struct QuizCount: Sendable {
        var started = 0
        var finished = 0
        var abandoned = 0
        /// Abandoned attempts by their counted answers.
        var drops: [Int: Int] = [:]
    }

    private let low: Int, high: Int
    private let from: Day?, to: Day?
    /// Users, numbered (attempt ids are per user); the analysis keeps nothing per learner.
    package var openLearners = OpenLearners<Learner>()
    private var attempts = ItemAttempts()
    /// By quiz number.
    private var quizCounts: [QuizCount] = []
    /// By question number (`ItemAttempts.questions`); nil for a question no counted answer named.
    private var tallies: [Tally?] = []
    /// Content ids, numbered; their questions under the content's number.
    private var contents = ByteKeys(), contentQuestions = ByteKeys()
    /// By content number: submissions in the range.
    private var submissions: [Int] = []
    /// By content question number.
    private var contentTallies: [Tally] = []

    /// An empty analysis of the attempts started, and submissions made, on days `from` ... `to` (nil: unbounded).
    package init(from: Day? = nil, to: Day? = nil) {
        self.from = from; self.to = to
        low = from?.ordinal ?? Int.min
        high = to?.ordinal ?? Int.max
    }

    private func inRange(_ day: Day) -> Bool { day.ordinal >= low && day.ordinal <= high }

    /// Folds one v1 event of user number `user`.
    package mutating func add(_ e: Envelope, user: Int32) {
        attempts.user = user
        let (verdict, day) = AttemptLifecycle.apply(e, to: &attempts)
        guard inRange(day) else { return }
        switch verdict {
        case .started(let attempt):
            quizCount(attempts.quiz(attempt)) { $0.started += 1 }
        case .answered:
            guard case .answerSelected(let selected) = e.event else { return }
            let (question, afterHint) = attempts.answered
            if question >= tallies.count { tallies.append(contentsOf: repeatElement(nil, count: question + 1 - tallies.count)) }
            if tallies[question] == nil { tallies[question] = Tally() }
            tallies[question]?.count(choice: selected.choice, correct: selected.correct, ms: selected.ms, hinted: afterHint)
        case .ended(_, let finished, _):
            let ended = attempts.ended
            if finished {
                quizCount(ended.quiz) { $0.finished += 1 }
                for answer in ended.answers {
                    let x = Int(answer & 1)
                    tallies[Int(answer >> 1)]?.pairs.add(x: x, y: ended.score - x)
                }
            } else {
                quizCount(ended.quiz) {
                    $0.abandoned += 1
                    $0.drops[ended.answers.count, default: 0] += 1
                }
            }
        case .other:
            guard case .submissionMade(let s) = e.event else { return }
            let content = withUTF8Bytes(s.content) { contents.insert($0).index }
            if content == submissions.count { submissions.append(0) }
            submissions[content] += 1
            for a in s.answers {
                let question = withUTF8Bytes(a.question) { contentQuestions.insert($0, tag: Int32(truncatingIfNeeded: content)).index }
                if question == contentTallies.count { contentTallies.append(Tally()) }
                contentTallies[question].count(choice: a.choice, correct: a.correct, ms: nil, hinted: false)
            }
        case .duplicateStart, .duplicateAnswer, .hinted, .unknown, .afterEnd, .reset:
            break
        }
    }

    /// Changes quiz number `quiz`'s counts.
    private mutating func quizCount(_ quiz: Int, _ change: (inout QuizCount) -> Void) {
        if quiz >= quizCounts.count { quizCounts.append(contentsOf: repeatElement(QuizCount(), count: quiz + 1 - quizCounts.count)) }
        change(&quizCounts[quiz])
    }

    /// The analysis of everything folded so far.
    package func analysis() -> ItemAnalysis {
        func name(_ keys: ByteKeys, _ k: Int) -> String { String(decoding: keys.key(k), as: UTF8.self) }
        var questions: [Int: [ItemAnalysis.Question]] = [:]
        for k in tallies.indices {
            guard let tally = tallies[k] else { continue }
            var q = tally.question(name(attempts.questions, k))
            q.medianMs = tally.ms.lowerMedian
            q.hinted = tally.hinted
            q.discriminationHundredths = tally.pairs.hundredths
            questions[Int(attempts.questions.tag(k)), default: []].append(q)
        }
        // A quiz is listed when one of its attempts started in the range.
        let quizRows = quizCounts.indices.filter { quizCounts[$0].started > 0 }
            .map { k -> (ExactString, ItemAnalysis.Quiz) in
                let counts = quizCounts[k]
                var quiz = ItemAnalysis.Quiz(quiz: name(attempts.quizzes, k))
                quiz.started = counts.started
                quiz.finished = counts.finished
                quiz.abandoned = counts.abandoned
                quiz.droppedAfter = counts.drops.sorted { $0.key < $1.key }
                    .map { ItemAnalysis.DropOff(answered: $0.key, attempts: $0.value) }
                quiz.questions = (questions[k] ?? []).sorted { CodePoint.less($0.question, $1.question) }
                return (ExactString(quiz.quiz), quiz)
            }
            .sorted { $0.0 < $1.0 }.map(\.1)
        var contentQuestionRows: [Int: [ItemAnalysis.Question]] = [:]
        for k in contentTallies.indices {
            contentQuestionRows[Int(contentQuestions.tag(k)), default: []].append(contentTallies[k].question(name(contentQuestions, k)))
        }
        let contentRows = submissions.indices
            .map { k -> (ExactString, ItemAnalysis.Content) in
                let id = name(contents, k)
                return (ExactString(id), ItemAnalysis.Content(content: id, submissions: submissions[k],
                                                             questions: (contentQuestionRows[k] ?? []).sorted { CodePoint.less($0.question, $1.question) }))
            }
            .sorted { $0.0 < $1.0 }.map(\.1)
        return ItemAnalysis(from: from, to: to, quizzes: quizRows, contents: contentRows)
    }
}

extension ItemsBuilder: AllLearnersFold {
    /// Nothing is kept per learner: the analysis's counts are sums over attempts and submissions.
    package struct Learner: Sendable {}

    package func makeLearner() -> Learner { Learner() }

    package mutating func close(_ learner: Learner, user: String) {}

    /// Forgets the closed learners' attempts (the counts stay).
    package mutating func forgetOpenLearners() { attempts.removeAll() }

    /// Adds what `other` folded over the same range: every count of the
    /// analysis is a sum over attempts and submissions, so learners folded
    /// apart (a ledger directory's learner logs, on several cores) give the
    /// analysis of all of them. Attempts `other` still had running are not
    /// carried over.
    package mutating func absorb(_ other: ItemsBuilder) {
        for k in other.quizCounts.indices {
            let quiz = attempts.quizNumber(String(decoding: other.attempts.quizzes.key(k), as: UTF8.self))
            quizCount(quiz) { $0.add(other.quizCounts[k]) }
        }
        for k in other.tallies.indices {
            guard let tally = other.tallies[k] else { continue }
            let quiz = attempts.quizNumber(String(decoding: other.attempts.quizzes.key(Int(other.attempts.questions.tag(k))), as: UTF8.self))
            let question = attempts.questionNumber(String(decoding: other.attempts.questions.key(k), as: UTF8.self), quiz: quiz)
            if question >= tallies.count { tallies.append(contentsOf: repeatElement(nil, count: question + 1 - tallies.count)) }
            if tallies[question] == nil { tallies[question] = Tally() }
            tallies[question]?.add(tally)
        }
        for k in other.submissions.indices {
            let content = Array(other.contents.key(k)).withUnsafeBytes { contents.insert($0).index }
            if content == submissions.count { submissions.append(0) }
            submissions[content] += other.submissions[k]
        }
        for k in other.contentTallies.indices {
            let content = Array(other.contents.key(Int(other.contentQuestions.tag(k)))).withUnsafeBytes { contents.insert($0).index }
            let question = Array(other.contentQuestions.key(k)).withUnsafeBytes {
                contentQuestions.insert($0, tag: Int32(truncatingIfNeeded: content)).index
            }
            if question == contentTallies.count { contentTallies.append(Tally()) }
            contentTallies[question].add(other.contentTallies[k])
        }
    }
}

extension ItemsBuilder.QuizCount {
    /// Adds another's counts (other attempts).
    mutating func add(_ other: Self) {
        started += other.started
        finished += other.finished
        abandoned += other.abandoned
        for (k, n) in other.drops { drops[k, default: 0] += n }
    }
}

extension ItemsBuilder.Tally {
    mutating func count(choice: Int, correct: Bool, ms: Int?, hinted: Bool) {
        answers += 1
        choices[choice, default: 0] += 1
        if correct { self.correct += 1 } else { wrong[choice, default: 0] += 1 }
        if let ms { self.ms.add(ms) }
        if hinted { self.hinted += 1 }
    }

    /// Adds another's counts (other answers).
    mutating func add(_ other: Self) {
        answers += other.answers
        correct += other.correct
        for (k, n) in other.choices { choices[k, default: 0] += n }
        for (k, n) in other.wrong { wrong[k, default: 0] += n }
        ms.add(other.ms)
        hinted += other.hinted
        pairs.add(other.pairs)
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
