import Events
import Foundation
import Ledger
import Projections
import Testing

@Suite("The README's Swift example works as written")
struct ReadmeExampleTests {
    @Test("append, apply live, and a replay from the file agree")
    func example() throws {
        let dir = try TemporaryDirectory()
        let logPath = dir.path("learner.log")

        // --- as in README.md ---
        let writer = try LedgerWriter(path: logPath)
        var projector = LearnerProjector(options: StateOptions(user: "u-42"))
        try LogReader(path: logPath).read { projector.apply($0) }

        let started = NewEvent(
            id: "e-1", at: try Timestamp(parsing: "2025-10-21T08:15:00+03:00"), user: "u-42",
            event: .quizStarted(QuizStarted(attempt: "a-1", quiz: "quran-basics", questions: 5, daily: true)))
        let answered = NewEvent(
            id: "e-2", at: try Timestamp(parsing: "2025-10-21T08:16:10+03:00"), user: "u-42",
            event: .answerSelected(AnswerSelected(attempt: "a-1", question: "q1", choice: 1, correct: true, skill: "inference")))
        for result in try writer.append([started, answered]) {
            if let envelope = result.envelope { projector.apply(envelope) }
        }
        let state = projector.state()
        // --- end ---

        #expect(state.dailyQuiz.status == .inProgress)
        #expect(state.dailyQuiz.nextQuestion == 1)
        #expect(state.dailyQuiz.score == 1)
        #expect(state.text.contains("Continue (2/5)"))

        // Replaying the file gives the same state, byte for byte.
        var replay = LearnerProjector(options: StateOptions(user: "u-42"))
        try LogReader(path: logPath).read { replay.apply($0) }
        #expect(replay.state().jsonBytes == state.jsonBytes)

        // Appending the same ids again writes nothing and gives no envelope to apply.
        let again = try writer.append([started, answered])
        #expect(again.map(\.status) == [.alreadyPresent, .alreadyPresent])
        #expect(again.allSatisfy { $0.envelope == nil })
        writer.close()
    }

    @Test("the README's command-line example: its events append, and state prints what the README shows, with no anomaly")
    func commandLineExample() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "cat > events.jsonl <<'JSON'"))
        let events = lines[(start + 1)...].prefix { $0 != "JSON" }
        // The block after "`state` prints what the app shows:".
        let shown = try #require(lines.firstIndex { $0.hasSuffix("`state` prints what the app shows:") })
        let open = try #require(lines[shown...].firstIndex(of: "```"))
        let expected = lines[(open + 1)...].prefix { $0 != "```" }.joined(separator: "\n") + "\n"
        let dir = try TemporaryDirectory()
        let log = dir.path("learner.log")
        let appended = try CLI.run(["append", log], input: events.joined(separator: "\n") + "\n")
        #expect(appended.status == 0, "\(appended.stderr)")
        let state = try CLI.run(["state", log, "--user", "u-42"])
        #expect(state.status == 0 && state.stderr.isEmpty)
        #expect(state.stdout == expected)
        #expect(state.stdout.contains("Anomalies: none"))
    }
}
