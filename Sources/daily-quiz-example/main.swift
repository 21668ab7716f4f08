// daily-quiz-example: the daily quiz of the first seed (a quiz of the day
// whose progress used to be lost when the app closed), played through the
// public API only: start, answer one question, close the app, reopen and
// resume at question 2, finish, retry after completion, the next day, and a
// quiz started before midnight and finished after it.
//
//   daily-quiz-example [LOG]     (default: a new file in the temporary directory)

import Events
import Foundation
import ProgressLedger
import Projections

let logPath = CommandLine.arguments.count > 1
    ? CommandLine.arguments[1]
    : FileManager.default.temporaryDirectory.appendingPathComponent("daily-quiz-\(UUID().uuidString).log").path
let user = "u-42"

/// One event of the learner, at `at` (RFC 3339 with the device's offset).
func event(_ id: String, _ at: String, _ event: Event) throws -> NewEvent {
    NewEvent(id: id, at: try Timestamp(parsing: at), user: user, device: "iphone", event: event)
}

func start(_ attempt: String) -> Event {
    .quizStarted(QuizStarted(attempt: attempt, quiz: "quran-basics", questions: 2, daily: true, title: "Quran Basics", category: "history"))
}

func answer(_ attempt: String, _ question: Int, correct: Bool) -> Event {
    .answerSelected(AnswerSelected(attempt: attempt, question: "q\(question)", choice: correct ? 1 : 0, correct: correct, skill: "sources"))
}

/// What the daily quiz screen shows.
func show(_ label: String, _ s: LearnerState) {
    let q = s.dailyQuiz
    var line = "\(label): \(q.day.map { "\($0)" } ?? "-") \(q.status)"
    switch q.status {
    case .inProgress:
        line += ", button \"Continue (\(q.nextQuestion + 1)/\(q.total ?? 0))\", score \(q.score)"
    case .completed, .abandoned:
        line += ", score \(q.score)/\(q.total ?? 0), best \(q.bestScore.map(String.init) ?? "-")"
    case .notStarted:
        line += ", button \"Start\""
    }
    line += ", attempts \(q.attempts), retries left \(q.retriesLeft), streak \(s.streak.current)"
    print(line)
}

let today = Day("2025-10-21")!
let tomorrow = Day("2025-10-22")!
let dayAfter = Day("2025-10-23")!

// Launch: open the log and follow the learner.
var store = try await LedgerStore.open(path: logPath)
show("launch", try await store.state(of: user, day: today))

try await store.append(event("e-1", "2025-10-21T08:15:00+03:00", start("a-1")))
show("start", try await store.state(of: user, day: today))
try await store.append(event("e-2", "2025-10-21T08:16:10+03:00", answer("a-1", 1, correct: true)))
show("answer 1", try await store.state(of: user, day: today))

// The learner swipes the app away; the OS ends it.
await store.close()
print("closed the app")

// Reopen: the state comes back from the log, at question 2.
store = try await LedgerStore.open(path: logPath)
show("reopen", try await store.state(of: user, day: today))
try await store.append(event("e-3", "2025-10-21T12:02:00+03:00", answer("a-1", 2, correct: true)))
try await store.append(event("e-4", "2025-10-21T12:02:05+03:00", .quizFinished(AttemptEnded(attempt: "a-1"))))
show("finish", try await store.state(of: user, day: today))

// A retry after completion: the best score stays.
try await store.append([
    event("e-5", "2025-10-21T18:30:00+03:00", start("a-2")),
    event("e-6", "2025-10-21T18:30:20+03:00", answer("a-2", 1, correct: false)),
    event("e-7", "2025-10-21T18:30:40+03:00", answer("a-2", 2, correct: true)),
    event("e-8", "2025-10-21T18:30:45+03:00", .quizFinished(AttemptEnded(attempt: "a-2"))),
])
show("retry", try await store.state(of: user, day: today))

// The next day: a new daily quiz, the streak carried.
show("next day", try await store.state(of: user, day: tomorrow))

// Started before midnight, finished after it: it belongs to the day it was started.
try await store.append([
    event("e-9", "2025-10-22T23:58:00+03:00", start("a-3")),
    event("e-10", "2025-10-22T23:59:30+03:00", answer("a-3", 1, correct: true)),
    event("e-11", "2025-10-23T00:01:10+03:00", answer("a-3", 2, correct: true)),
    event("e-12", "2025-10-23T00:01:15+03:00", .quizFinished(AttemptEnded(attempt: "a-3"))),
])
show("across midnight, its day", try await store.state(of: user, day: tomorrow))
show("across midnight, the day after", try await store.state(of: user, day: dayAfter))

// Re-sending an event whose answer was lost appends nothing.
let again = try await store.append(event("e-12", "2025-10-23T00:01:15+03:00", .quizFinished(AttemptEnded(attempt: "a-3"))))
print("re-sent e-12: \(again.status) at seq \(again.seq)")
await store.close()
print("log: \(logPath)")
