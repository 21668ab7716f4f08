import Events

/// Parses a timestamp known to be valid (test helper).
func ts(_ text: String) -> Timestamp {
    do { return try Timestamp(parsing: text) } catch { fatalError("bad test timestamp \(text): \(error)") }
}

/// One envelope of every event type, with all optional members, and with none,
/// paired with the exact line the encoder must write.
enum Samples {
    static let prev = String(repeating: "a", count: 64)

    static let cases: [(name: String, envelope: Envelope, line: String)] = [
        ("quiz.started full",
         Envelope(seq: 1, id: "e-1", at: ts("2025-10-21T23:55:12.120+03:00"), user: "u-42", device: "ipad-1",
                  event: .quizStarted(QuizStarted(attempt: "a-1", quiz: "quran-basics", questions: 5, daily: true,
                                                  title: "Quran Basics", category: "history", difficulty: "easy", diagnostic: false)),
                  prev: Envelope.genesis),
         #"{"v":1,"seq":1,"id":"e-1","at":"2025-10-21T23:55:12.120+03:00","user":"u-42","device":"ipad-1","type":"quiz.started","data":{"attempt":"a-1","quiz":"quran-basics","questions":5,"daily":true,"title":"Quran Basics","category":"history","difficulty":"easy","diagnostic":false},"prev":"0000000000000000000000000000000000000000000000000000000000000000"}"#),
        ("quiz.started minimal",
         Envelope(seq: 2, id: "e-2", at: ts("2025-10-21T08:00:00Z"), user: "u-42",
                  event: .quizStarted(QuizStarted(attempt: "a-2", quiz: "math-1", questions: 1)), prev: prev),
         #"{"v":1,"seq":2,"id":"e-2","at":"2025-10-21T08:00:00Z","user":"u-42","type":"quiz.started","data":{"attempt":"a-2","quiz":"math-1","questions":1},"prev":"\#(prev)"}"#),
        ("answer.selected full",
         Envelope(seq: 3, id: "e-3", at: ts("2025-10-22T00:01:02-08:00"), user: "u-42",
                  event: .answerSelected(AnswerSelected(attempt: "a-1", question: "q2", choice: 1, correct: true,
                                                        correctChoice: 1, skill: "inference", ms: 5400)), prev: prev),
         #"{"v":1,"seq":3,"id":"e-3","at":"2025-10-22T00:01:02-08:00","user":"u-42","type":"answer.selected","data":{"attempt":"a-1","question":"q2","choice":1,"correct":true,"correct_choice":1,"skill":"inference","ms":5400},"prev":"\#(prev)"}"#),
        ("answer.selected minimal",
         Envelope(seq: 4, id: "e-4", at: ts("2025-10-22T00:01:02Z"), user: "u-42",
                  event: .answerSelected(AnswerSelected(attempt: "a-1", question: "0", choice: 0, correct: false)), prev: prev),
         #"{"v":1,"seq":4,"id":"e-4","at":"2025-10-22T00:01:02Z","user":"u-42","type":"answer.selected","data":{"attempt":"a-1","question":"0","choice":0,"correct":false},"prev":"\#(prev)"}"#),
        ("hint.used",
         Envelope(seq: 5, id: "e-5", at: ts("2025-10-22T00:01:03Z"), user: "u-42",
                  event: .hintUsed(HintUsed(attempt: "a-1", question: "q3", hint: .fiftyFifty)), prev: prev),
         #"{"v":1,"seq":5,"id":"e-5","at":"2025-10-22T00:01:03Z","user":"u-42","type":"hint.used","data":{"attempt":"a-1","question":"q3","hint":"fifty_fifty"},"prev":"\#(prev)"}"#),
        ("quiz.finished",
         Envelope(seq: 6, id: "e-6", at: ts("2025-10-22T00:05:00Z"), user: "u-42",
                  event: .quizFinished(AttemptEnded(attempt: "a-1")), prev: prev),
         #"{"v":1,"seq":6,"id":"e-6","at":"2025-10-22T00:05:00Z","user":"u-42","type":"quiz.finished","data":{"attempt":"a-1"},"prev":"\#(prev)"}"#),
        ("quiz.abandoned",
         Envelope(seq: 7, id: "e-7", at: ts("2025-10-22T00:05:00Z"), user: "u-42",
                  event: .quizAbandoned(AttemptEnded(attempt: "a-2")), prev: prev),
         #"{"v":1,"seq":7,"id":"e-7","at":"2025-10-22T00:05:00Z","user":"u-42","type":"quiz.abandoned","data":{"attempt":"a-2"},"prev":"\#(prev)"}"#),
        ("puzzle.completed",
         Envelope(seq: 8, id: "e-8", at: ts("2025-10-22T10:00:00+05:30"), user: "u-42",
                  event: .puzzleCompleted(PuzzlePlayed(puzzle: "p-1", encoding: "caesar", seconds: Seconds(literal: "42.25"))), prev: prev),
         #"{"v":1,"seq":8,"id":"e-8","at":"2025-10-22T10:00:00+05:30","user":"u-42","type":"puzzle.completed","data":{"puzzle":"p-1","encoding":"caesar","seconds":42.25},"prev":"\#(prev)"}"#),
        ("puzzle.failed without seconds",
         Envelope(seq: 9, id: "e-9", at: ts("2025-10-22T10:00:00+05:30"), user: "u-42",
                  event: .puzzleFailed(PuzzlePlayed(puzzle: "p-1", encoding: "substitution")), prev: prev),
         #"{"v":1,"seq":9,"id":"e-9","at":"2025-10-22T10:00:00+05:30","user":"u-42","type":"puzzle.failed","data":{"puzzle":"p-1","encoding":"substitution"},"prev":"\#(prev)"}"#),
        ("submission.made full",
         Envelope(seq: 10, id: "e-10", at: ts("2025-10-22T11:00:00Z"), user: "u-42", device: "web",
                  event: .submissionMade(SubmissionMade(content: "passage-7", kind: .passage, category: "reading", diagnostic: true, seconds: 300,
                                                        answers: [.init(question: "q1", choice: 2, correct: true, skill: "inference"),
                                                                  .init(question: "q2", choice: 0, correct: false)])), prev: prev),
         #"{"v":1,"seq":10,"id":"e-10","at":"2025-10-22T11:00:00Z","user":"u-42","device":"web","type":"submission.made","data":{"content":"passage-7","kind":"passage","category":"reading","diagnostic":true,"seconds":300,"answers":[{"question":"q1","choice":2,"correct":true,"skill":"inference"},{"question":"q2","choice":0,"correct":false}]},"prev":"\#(prev)"}"#),
        ("submission.made empty",
         Envelope(seq: 11, id: "e-11", at: ts("2025-10-22T11:00:00Z"), user: "u-42",
                  event: .submissionMade(SubmissionMade(content: "lesson-1", kind: .lesson, category: "math", answers: [])), prev: prev),
         #"{"v":1,"seq":11,"id":"e-11","at":"2025-10-22T11:00:00Z","user":"u-42","type":"submission.made","data":{"content":"lesson-1","kind":"lesson","category":"math","answers":[]},"prev":"\#(prev)"}"#),
        ("hints.granted",
         Envelope(seq: 12, id: "e-12", at: ts("2025-10-22T11:00:00Z"), user: "u-42",
                  event: .hintsGranted(HintsGranted(amount: 3, reason: .purchase)), prev: prev),
         #"{"v":1,"seq":12,"id":"e-12","at":"2025-10-22T11:00:00Z","user":"u-42","type":"hints.granted","data":{"amount":3,"reason":"purchase"},"prev":"\#(prev)"}"#),
        ("progress.reset",
         Envelope(seq: 13, id: "e-13", at: ts("2025-10-22T11:00:00Z"), user: "u \"quoted\" \\ é 𝄞",
                  event: .progressReset(ProgressReset(scope: .quizzes)), prev: prev),
         #"{"v":1,"seq":13,"id":"e-13","at":"2025-10-22T11:00:00Z","user":"u \"quoted\" \\ é 𝄞","type":"progress.reset","data":{"scope":"quizzes"},"prev":"\#(prev)"}"#),
    ]
}
