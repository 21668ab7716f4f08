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
}
