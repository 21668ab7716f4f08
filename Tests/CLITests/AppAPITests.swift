import Events
import Foundation
import ProgressLedger
import Projections
import Testing

/// The Swift API against the command line: the worked example's output, and
/// the live states (observed and encoded with `JSONEncoder`) against what
/// `progress-ledger state --json` prints for the same log. JSON is compared
/// as values parsed by Foundation's `JSONSerialization`.
@Suite("App API: the store, observation and the worked example against the CLI")
struct AppAPITests {
    static func json(_ bytes: some Sequence<UInt8>) throws -> NSObject {
        try #require(JSONSerialization.jsonObject(with: Data(bytes), options: []) as? NSObject)
    }

    @Test("the daily-quiz example prints the hand-worked screens, and its log is what state --json shows")
    func workedExample() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("quiz.log")
        let run = try CLI.runTool(CLI.productsDirectory.appendingPathComponent("daily-quiz-example"), [log])
        #expect(run.status == 0, "\(run.stderr)")
        // By hand: 2 questions; a question is resumed at answered + 1; the retry after completion
        // uses the one retry (limit 1); the late quiz of 10-22 finished on 10-23 counts for 10-22.
        let expected = """
        launch: 2025-10-21 not_started, button "Start", attempts 0, retries left 1, streak 0
        start: 2025-10-21 in_progress, button "Continue (1/2)", score 0, attempts 1, retries left 1, streak 0
        answer 1: 2025-10-21 in_progress, button "Continue (2/2)", score 1, attempts 1, retries left 1, streak 0
        closed the app
        reopen: 2025-10-21 in_progress, button "Continue (2/2)", score 1, attempts 1, retries left 1, streak 0
        finish: 2025-10-21 completed, score 2/2, best 2, attempts 1, retries left 1, streak 1
        retry: 2025-10-21 completed, score 1/2, best 2, attempts 2, retries left 0, streak 1
        next day: 2025-10-22 not_started, button "Start", attempts 0, retries left 1, streak 1
        across midnight, its day: 2025-10-22 completed, score 2/2, best 2, attempts 1, retries left 1, streak 2
        across midnight, the day after: 2025-10-23 not_started, button "Start", attempts 0, retries left 1, streak 2
        re-sent e-12: alreadyPresent at seq 12
        log: \(log)

        """
        #expect(run.stdout == expected)
        let verify = try CLI.run(["verify", log])
        #expect(verify.status == 0 && verify.stdout.contains("12 events"), "\(verify.stdout)")
        let cli = try CLI.run(["state", log, "--user", "u-42", "--json", "--day", "2025-10-22"])
        #expect(cli.stdout.contains(#""status":"completed""#))
    }

    @Test("the observed states end with the state state --json prints, and JSONEncoder writes that state")
    func observedStates() async throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("log")
        let store = try await LedgerStore.open(path: log)
        let observer = Task {
            var seen: [LearnerState] = []
            for try await state in store.states(of: "u-7") { seen.append(state) }
            return seen
        }
        // Several tasks append: two learners' quizzes, hints and a puzzle, interleaved.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for user in ["u-7", "u-8"] {
                group.addTask {
                    func e(_ id: String, _ at: String, _ type: String, _ data: String) throws -> NewEvent {
                        try JSONDecoder().decode(NewEvent.self, from: Data(#"{"id":"\#(user)-\#(id)","at":"\#(at)","user":"\#(user)","type":"\#(type)","data":\#(data)}"#.utf8))
                    }
                    try await store.append(e("1", "2025-10-21T08:00:00+03:00", "hints.granted", #"{"amount":3,"reason":"seed"}"#))
                    try await store.append(e("2", "2025-10-21T08:01:00+03:00", "quiz.started", #"{"attempt":"a","quiz":"q","questions":3,"daily":true}"#))
                    try await store.append(e("3", "2025-10-21T08:02:00+03:00", "answer.selected", #"{"attempt":"a","question":"1","choice":0,"correct":true,"skill":"tone"}"#))
                    try await store.append(e("4", "2025-10-21T08:03:00+03:00", "hint.used", #"{"attempt":"a","question":"2","hint":"reveal"}"#))
                    try await store.append(e("5", "2025-10-21T08:04:00+03:00", "answer.selected", #"{"attempt":"a","question":"2","choice":2,"correct":false}"#))
                    try await store.append(e("6", "2025-10-21T08:05:00+03:00", "quiz.abandoned", #"{"attempt":"a"}"#))
                    try await store.append(e("7", "2025-10-22T21:00:00-05:00", "puzzle.completed", #"{"puzzle":"p","encoding":"caesar","seconds":12.75}"#))
                }
            }
            try await group.waitForAll()
        }
        let live = try await store.state(of: "u-7")
        await store.close()
        let seen = try await observer.value
        let last = try #require(seen.last)
        #expect(seen.count >= 2)
        let cli = try CLI.run(["state", log, "--user", "u-7", "--json"])
        #expect(cli.status == 0)
        #expect(last.json == cli.stdout.trimmingCharacters(in: .newlines))
        #expect(live == last)
        // The review schedule travels with the state: u-7's two answers are two items.
        #expect(last.review.items.map(\.question) == ["2", "1"])
        let encoder = JSONEncoder()
        #expect(try Self.json(encoder.encode(last)) == Self.json(cli.stdoutBytes))
        // Null members are written as null, not left out.
        let encoded = String(decoding: try encoder.encode(last), as: UTF8.self)
        #expect(cli.stdout.contains("null") && encoded.contains("null"))
    }

    @Test("an idempotent append still yields the learner's state, unchanged: awaiting the state after one's own append never hangs")
    func idempotentAppendYields() async throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("log")
        func event(_ id: String, _ amount: Int) throws -> NewEvent {
            try JSONDecoder().decode(NewEvent.self, from: Data(#"{"id":"\#(id)","at":"2025-10-21T08:00:00+03:00","user":"u-9","type":"hints.granted","data":{"amount":\#(amount),"reason":"seed"}}"#.utf8))
        }
        let store = try await LedgerStore.open(path: log)
        try await store.append(event("g-1", 3))
        let seen = Task {
            var changes = store.states(of: "u-9").makeAsyncIterator()
            var balances: [Int] = []
            balances.append(try await changes.next()?.hints.balance ?? -1)   // the state now
            try await store.append(event("g-1", 3))                          // already in the log: nothing written
            balances.append(try await changes.next()?.hints.balance ?? -1)   // yielded anyway, the same
            try await store.append(event("g-2", 2))                          // a new event: a new state
            balances.append(try await changes.next()?.hints.balance ?? -1)
            return balances
        }
        let timeout = Task { try await Task.sleep(nanoseconds: 30_000_000_000); seen.cancel() }
        let balances = try await seen.value
        timeout.cancel()
        #expect(balances == [3, 3, 5])
        await store.close()
        // One line per event: the re-send wrote nothing.
        #expect(try CLI.run(["verify", log]).stdout.contains("ok: 2 events"))
    }
}
