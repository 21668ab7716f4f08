import Events

/// One quiz attempt as the log tells it: its start, its first answers, the
/// hints used on each question and how it ended.
///
/// Kept by ``AttemptsBook``, the one place that decides which attempt an event
/// belongs to; projections read attempts, they never rebuild them.
package struct Attempt: Sendable, Hashable {
    /// The first answer to one question of the attempt (later ones are anomalies).
    package struct Answer: Sendable, Hashable {
        /// The question id.
        package let question: String   // not a key: answers are looked up by ExactString
        /// Whether the chosen option was right.
        package let correct: Bool
        /// The skill the question tests, if given.
        package let skill: String?   // not a key: a value carried along
        /// The `seq` of the `answer.selected` event.
        package let seq: Int
        /// Whether a hint was used on this question of this attempt before the answer.
        package let afterHint: Bool

        /// Makes an answer.
        package init(question: String, correct: Bool, skill: String?, seq: Int, afterHint: Bool) {
            self.question = question; self.correct = correct; self.skill = skill
            self.seq = seq; self.afterHint = afterHint
        }
    }

    /// How an attempt ended.
    package struct Ending: Sendable, Hashable {
        /// Finished (reached the end) or abandoned (quit early).
        package enum Kind: Sendable, Hashable { case finished, abandoned }
        /// Finished or abandoned.
        package let kind: Kind
        /// The `seq` of the `quiz.finished` / `quiz.abandoned` event.
        package let seq: Int
        /// Its `at`.
        package let at: Timestamp
    }

    /// Where an attempt stands.
    package enum Status: Sendable, Hashable { case inProgress, finished, abandoned }

    /// The attempt id.
    package let id: String   // not a key: AttemptsBook files attempts by ExactString
    /// Its `quiz.started` payload.
    package let start: QuizStarted
    /// The `seq` of its `quiz.started`.
    package let startSeq: Int
    /// The `at` of its `quiz.started`.
    package let startedAt: Timestamp
    /// How many `quizzes`/`all` resets came before its start; it counts in the
    /// quiz projections only while this equals the book's ``AttemptsBook/quizEpoch``.
    package let quizEpoch: Int
    /// Its first answers, in log order.
    package internal(set) var answers: [Answer] = []
    /// The `seq` of the first answer to each question.
    package internal(set) var answerSeqByQuestion: [ExactString: Int] = [:]
    /// How many `hint.used` events named each question.
    package internal(set) var hintsByQuestion: [ExactString: Int] = [:]
    /// How it ended; nil while in progress.
    package internal(set) var ending: Ending?
    /// Correct first answers.
    package internal(set) var score = 0

    /// Makes a started attempt.
    package init(started: QuizStarted, seq: Int, at: Timestamp, quizEpoch: Int) {
        self.id = started.attempt; self.start = started; self.startSeq = seq
        self.startedAt = at; self.quizEpoch = quizEpoch
        // Room for an answer to each question at once (clamped: `questions` is
        // the log's word), not grown from empty answer by answer. The capacity
        // changes no value: `answers` keeps log order, and the dictionary is
        // only looked up by question (its hash and == ignore its layout).
        let expected = min(max(started.questions, 0), Self.reservedAnswers)
        answers.reserveCapacity(expected)
        // Made with its room (an initializer specialized here): `reserveCapacity`
        // of a dictionary is not inlinable, so it ran as the standard library's
        // generic code, looking its types' metadata up at every start.
        answerSeqByQuestion = Dictionary(minimumCapacity: expected)
    }

    /// At most this many answers' room is made when an attempt starts.
    private static var reservedAnswers: Int { 64 }

    /// Adds `answer` (of `seq`) when it is the first to its question (by
    /// code points: `ExactString`); whether it was. The one place a first
    /// answer is recorded and scored.
    mutating func recordIfFirst(_ answer: AnswerSelected, seq: Int) -> Bool {
        let question = ExactString(answer.question)
        guard answerSeqByQuestion[question] == nil else { return false }
        answers.append(Answer(question: answer.question, correct: answer.correct, skill: answer.skill,
                              seq: seq, afterHint: (hintsByQuestion[question] ?? 0) > 0))
        answerSeqByQuestion[question] = seq
        if answer.correct { score += 1 }
        return true
    }

    /// The attempt's day: the day of its `quiz.started`, for all its events.
    package var day: Day { startedAt.day }
    /// The quiz id.
    package var quiz: String { start.quiz }
    /// Its number of questions: the total of its result.
    package var questions: Int { start.questions }
    /// Whether it is a daily quiz attempt.
    package var isDaily: Bool { start.isDaily }
    /// How many questions have a first answer.
    package var answered: Int { answers.count }

    /// In progress, finished or abandoned.
    package var status: Status {
        switch ending?.kind {
        case nil: .inProgress
        case .finished?: .finished
        case .abandoned?: .abandoned
        }
    }

    /// Whether it finished.
    package var isFinished: Bool { ending?.kind == .finished }

    /// Its result as a percent (`score` of `questions`, halves up); nil while in progress.
    package var percent: Int? { ending == nil ? nil : Percent.of(score, questions) }

    /// Whether it finished with every question right.
    package var isPerfect: Bool { isFinished && score >= questions }

    /// Exact time from start to finish; nil unless finished.
    package var finishSeconds: ExactSeconds? {
        guard let ending, ending.kind == .finished else { return nil }
        return startedAt.instant.duration(to: ending.at.instant)
    }
}
