import Events
import Foundation
import Projections
import ProgressLedger

let logPath = "learner-app.log"      // the app's log (in an app: a file in its Application Support folder)
let today = try Timestamp(parsing: "2025-10-21T09:00:00+03:00").day   // the learner's day, 2025-10-21

// On launch: open (or create) the log, off the calling thread.
let store = try await LedgerStore.open(path: logPath)
try await store.track(StateOptions(user: "u-42"))   // reads u-42's events once (pass `snapshot:` to start warm)

// On each action: append; it is on disk (fsync'd) when the call returns. Re-sending an
// event (same id, same content) appends nothing: run this twice, the log stays the same.
let granted = NewEvent(
    id: "e-1", at: try Timestamp(parsing: "2025-10-21T08:14:00+03:00"), user: "u-42",
    event: .hintsGranted(HintsGranted(amount: 3, reason: .seed)))
let started = NewEvent(
    id: "e-2", at: try Timestamp(parsing: "2025-10-21T08:15:00+03:00"), user: "u-42",
    event: .quizStarted(QuizStarted(attempt: "a-1", quiz: "quran-basics", questions: 5, daily: true)))
let answered = NewEvent(
    id: "e-3", at: try Timestamp(parsing: "2025-10-21T08:16:10+03:00"), user: "u-42",
    event: .answerSelected(AnswerSelected(attempt: "a-1", question: "q1", choice: 1, correct: true, skill: "inference")))
try await store.append(granted)
try await store.append(started)
try await store.append(answered)

// What the app shows: the daily quiz's button, the streak, the hint balance...
let state = try await store.state(of: "u-42", day: today)
print(state.dailyQuiz.status)                 // in_progress
print(state.dailyQuiz.nextQuestion + 1)       // 2: "Continue (2/5)"

// Events and the state are Codable: the spec's JSON, for your own HTTP client.
let body = try JSONEncoder().encode(answered)          // a line `progress-ledger append` accepts
let stateJSON = try JSONEncoder().encode(state)       // what `state --json` prints
print(body.count > 0, stateJSON.count > 0)

// Every change of a learner's state, as an AsyncSequence: the state now, then
// after each group commit that held the learner's events — a re-sent event too,
// which yields the state unchanged, so awaiting your own append never hangs
// (here in a function, as it would be in a view model: an iterator is not
// shared across tasks).
func follow(_ store: LedgerStore) async throws {
    var changes = store.states(of: "u-42").makeAsyncIterator()
    _ = try await changes.next()                  // the state now: the observer is registered
    try await store.append(NewEvent(
        id: "e-4", at: try Timestamp(parsing: "2025-10-21T08:16:40+03:00"), user: "u-42",
        event: .hintUsed(HintUsed(attempt: "a-1", question: "q2", hint: .fiftyFifty))))
    print("hints left", try await changes.next()?.hints.balance ?? -1)   // after that commit: 3 granted, 1 used
    await store.close()
    print(try await changes.next() == nil)       // close() ended the sequence
}
try await follow(store)
