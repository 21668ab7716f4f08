import Events

/// The question analysis's storage for ``AttemptLifecycle``: every user's
/// attempts (``AttemptIndex``: an id and a start day each) and, while an
/// attempt runs, only what `items` reads of it: its quiz, its score, its first
/// answers (question and correctness) and the questions hinted so far. The
/// rules are the lifecycle's, as for `state`'s ``AttemptsBook``.
///
/// Quiz and question ids are numbered once (``ByteKeys``; a question under
/// its quiz's number), so an answer is a word, and the analysis's counts are
/// kept by number. When an attempt ends, its running part is read by the fold
/// (``ended``) and its storage reused by the next attempt.
struct ItemAttempts: Sendable {
    /// What an attempt keeps while it runs.
    struct Running: Sendable {
        /// Its quiz's number.
        var quiz = 0
        /// Its correct first answers.
        var score = 0
        /// Its first answers, in order: the question's number << 1 | 1 when right.
        var answers: [UInt32] = []
        /// The questions a `hint.used` named while it ran (numbers).
        var hinted: [UInt32] = []
    }

    /// Quiz ids, numbered.
    private(set) var quizzes = ByteKeys()
    /// Question ids, numbered under their quiz's number.
    private(set) var questions = ByteKeys()
    /// The first answer stored last: its question's number, and whether the
    /// question had a hint in the attempt before it.
    private(set) var answered = (question: 0, afterHint: false)
    /// The slot of the attempt that ended last (read by ``ended`` before the next event).
    private var endedSlot = 0

    /// The attempts' ids, days and slots.
    var index = AttemptIndex()
    /// By slot.
    private var running: [Running] = []

    /// Nothing known.
    init() {}

    /// The quiz number of a running attempt.
    func quiz(_ attempt: Int) -> Int { running[index.slot(attempt)].quiz }

    /// The attempt that ended last, as it was when it ended.
    var ended: Running { running[endedSlot] }

    /// The number of a quiz id (numbered now if new).
    mutating func quizNumber(_ quiz: String) -> Int {
        withUTF8Bytes(quiz) { quizzes.insert($0).index }
    }

    /// The number of a question id of quiz number `quiz` (numbered now if new).
    mutating func questionNumber(_ question: String, quiz: Int) -> Int {
        withUTF8Bytes(question) { questions.insert($0, tag: Int32(truncatingIfNeeded: quiz)).index }
    }

    /// Forgets every attempt (a learner was closed), keeping the ids' numbers and the storage.
    mutating func removeAll() {
        index.removeAll()
    }
}

extension ItemAttempts: IndexedAttempts {
    typealias Input = Envelope

    mutating func find(_ id: String) -> Int? { index.find(id) }

    mutating func start(_ started: QuizStarted, _ envelope: Envelope) -> Int {
        let (attempt, slot) = index.start(started.attempt, on: envelope.day)
        if slot == running.count { running.append(Running()) }
        running[slot].quiz = quizNumber(started.quiz)
        running[slot].score = 0
        running[slot].answers.removeAll(keepingCapacity: true)
        running[slot].hinted.removeAll(keepingCapacity: true)
        return attempt
    }

    mutating func answer(_ attempt: Int, _ answer: AnswerSelected, _ envelope: Envelope) -> Bool {
        let slot = index.slot(attempt)
        let question = questionNumber(answer.question, quiz: running[slot].quiz)
        let word = UInt32(truncatingIfNeeded: question)
        guard !running[slot].answers.contains(where: { $0 >> 1 == word }) else { return false }
        running[slot].answers.append(word << 1 | (answer.correct ? 1 : 0))
        if answer.correct { running[slot].score += 1 }
        answered = (question, running[slot].hinted.contains(word))
        return true
    }

    mutating func hint(_ attempt: Int, _ hint: HintUsed) {
        // Only a hint before an answer of the running attempt matters (`hinted`).
        guard index.isRunning(attempt) else { return }
        let slot = index.slot(attempt)
        let word = UInt32(truncatingIfNeeded: questionNumber(hint.question, quiz: running[slot].quiz))
        if !running[slot].hinted.contains(word) { running[slot].hinted.append(word) }
    }

    mutating func end(_ attempt: Int, finished: Bool, _ envelope: Envelope) {
        endedSlot = index.end(attempt)
    }

    /// The analysis ignores resets: answers and attempts are activity.
    mutating func resetQuizzes() {}

    func counts(_ attempt: Int) -> Bool { true }
}
