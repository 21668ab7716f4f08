import Events
@testable import Projections

/// Builds a log in memory: envelopes with consecutive `seq`s, one user by default.
struct LogBuilder {
    var user: String
    private(set) var records: [Record] = []

    init(user: String = "u-1") { self.user = user }

    var envelopes: [Envelope] {
        records.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    @discardableResult
    mutating func add(_ at: String, _ event: Event, user: String? = nil, id: String? = nil) -> Int {
        let seq = records.count + 1
        let envelope = Envelope(seq: seq, id: id ?? "e-\(seq)", at: stamp(at), user: user ?? self.user,
                                event: event, prev: Envelope.genesis)
        records.append(.event(envelope))
        return seq
    }

    mutating func start(_ at: String, _ attempt: String, quiz: String = "daily-quiz", questions: Int = 5,
                        daily: Bool = true, category: String? = nil, diagnostic: Bool? = nil, user: String? = nil) {
        add(at, .quizStarted(QuizStarted(attempt: attempt, quiz: quiz, questions: questions, daily: daily,
                                         category: category, diagnostic: diagnostic)), user: user)
    }

    mutating func answer(_ at: String, _ attempt: String, _ question: String, correct: Bool = true,
                         skill: String? = nil, user: String? = nil) {
        add(at, .answerSelected(AnswerSelected(attempt: attempt, question: question, choice: correct ? 1 : 0,
                                               correct: correct, skill: skill)), user: user)
    }

    mutating func hint(_ at: String, _ attempt: String, _ question: String, _ kind: HintUsed.Kind = .fiftyFifty) {
        add(at, .hintUsed(HintUsed(attempt: attempt, question: question, hint: kind)))
    }

    mutating func finish(_ at: String, _ attempt: String, user: String? = nil) {
        add(at, .quizFinished(AttemptEnded(attempt: attempt)), user: user)
    }

    mutating func abandon(_ at: String, _ attempt: String) {
        add(at, .quizAbandoned(AttemptEnded(attempt: attempt)))
    }

    mutating func puzzle(_ at: String, _ puzzle: String, _ encoding: String = "caesar", completed: Bool = true,
                         seconds: String? = "30") {
        let played = PuzzlePlayed(puzzle: puzzle, encoding: encoding, seconds: seconds.flatMap { Seconds(literal: $0) })
        add(at, completed ? .puzzleCompleted(played) : .puzzleFailed(played))
    }

    mutating func submit(_ at: String, _ content: String, kind: SubmissionMade.Kind = .lesson,
                         category: String = "reading", diagnostic: Bool? = nil,
                         answers: [(correct: Bool, skill: String?)]) {
        let items = answers.enumerated().map { i, a in
            SubmissionMade.Answer(question: "q\(i + 1)", choice: 0, correct: a.correct, skill: a.skill)
        }
        add(at, .submissionMade(SubmissionMade(content: content, kind: kind, category: category,
                                               diagnostic: diagnostic, answers: items)))
    }

    mutating func grant(_ at: String, _ amount: Int, _ reason: HintsGranted.Reason = .seed) {
        add(at, .hintsGranted(HintsGranted(amount: amount, reason: reason)))
    }

    /// A `streak.freeze_granted` (format version 2).
    @discardableResult
    mutating func freeze(_ at: String, _ amount: Int, _ reason: StreakFreezeGranted.Reason = .reward) -> Int {
        add(at, .streakFreezeGranted(StreakFreezeGranted(amount: amount, reason: reason)))
    }

    /// A `streak.paused` of the days `from` ... `to` (format version 2).
    @discardableResult
    mutating func pause(_ at: String, from: String, to: String) -> Int {
        add(at, .streakPaused(StreakPaused(from: day(from), to: day(to))))
    }

    mutating func reset(_ at: String, _ scope: ProgressReset.Scope) {
        add(at, .progressReset(ProgressReset(scope: scope)))
    }

    mutating func newer(version: Int = 3, user: String?, type: String? = "quiz.paused") {
        let seq = records.count + 1
        records.append(.newer(NewerVersionLine(version: version, seq: seq, id: "e-\(seq)", user: user,
                                               prev: Envelope.genesis, type: type)))
    }

    /// A whole daily attempt: start, `correct` right answers then wrong ones, finish, all at `at`'s minute.
    mutating func dailyDone(_ day: String, _ attempt: String, correct: Int = 5, questions: Int = 5,
                            quiz: String? = nil, offset: String = "Z") {
        start("\(day)T09:00:00\(offset)", attempt, quiz: quiz ?? "daily-\(day)", questions: questions)
        for q in 0..<questions {
            answer("\(day)T09:0\(min(q + 1, 9)):00\(offset)", attempt, "q\(q + 1)", correct: q < correct)
        }
        finish("\(day)T09:10:00\(offset)", attempt)
    }
}

/// Parses a timestamp written in a test; a typo is a test bug, reported loudly.
func stamp(_ text: String) -> Timestamp {
    do { return try Timestamp(parsing: text) } catch { fatalError("bad timestamp in test: \(text): \(error)") }
}

/// Parses a day written in a test.
func day(_ text: String) -> Day {
    guard let d = Day(text) else { fatalError("bad day in test: \(text)") }
    return d
}
