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

    /// The README's fenced blocks: (the line opening it, its text).
    static func readmeBlocks() throws -> [(fence: String, text: String)] {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [(String, String)] = []
        var current: (String, [Substring])? = nil
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if var open = current {
                if line == "```" { blocks.append((open.0, open.1.joined(separator: "\n") + "\n")); current = nil } else { open.1.append(line); current = open }
            } else if line.hasPrefix("```") {
                current = (String(line), [])
            }
        }
        return blocks
    }

    @Test("the README's Swift example, as written, runs twice in a row on one log within a minute each and prints what the README says both times")
    func swiftExampleRunsTwice() throws {
        let blocks = try Self.readmeBlocks()
        let swift = blocks.filter { $0.fence == "```swift" && !$0.text.hasPrefix("// swift-tools-version") }
        let block = try #require(swift.first).text
        // The example target is the README's block byte for byte: running it is running the README.
        let source = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Sources/readme-example/main.swift"), encoding: .utf8)
        #expect(source == block, "Sources/readme-example/main.swift differs from README.md's Swift block: copy the block into it")
        // What the README says it prints: the block after "It prints, on every run".
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let after = try #require(readme.range(of: "It prints, on every run")).upperBound
        let expected = try #require(blocks.first { $0.fence == "```" && readme[after...].contains("```\n" + $0.text) }).text

        let dir = try TemporaryDirectory()
        let example = CLI.productsDirectory.appendingPathComponent("readme-example")
        for run in 1...2 {
            let started = Date()
            let result = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/timeout"), ["60", example.path], in: dir.url)
            #expect(result.status == 0, "run \(run): exit \(result.status) (124: it hung) \(result.stderr)")
            #expect(result.stdout == expected, "run \(run) printed:\n\(result.stdout)")
            #expect(Date().timeIntervalSince(started) < 60)
        }
        // One log, written by the first run only: the second re-sent what it held.
        let verify = try CLI.run(["verify", dir.path("learner-app.log")])
        #expect(verify.status == 0 && verify.stdout.contains("4 events"), "\(verify.stdout)")
    }
}
