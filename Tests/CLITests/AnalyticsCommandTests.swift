import Foundation
import Testing

/// `items` and `leaderboard` through the command line, on small logs written by the real writer.
@Suite("items and leaderboard commands")
struct AnalyticsCommandTests {
    static let log = [
        LogFixture.event("e1", "2025-10-01T08:00:00+02:00", "u-1", "quiz.started", #"{"attempt":"a","quiz":"Q","questions":2}"#),
        LogFixture.event("e2", "2025-10-01T08:00:10+02:00", "u-1", "answer.selected", #"{"attempt":"a","question":"q1","choice":2,"correct":false,"ms":1200}"#),
        LogFixture.event("e3", "2025-10-01T08:00:20+02:00", "u-1", "quiz.abandoned", #"{"attempt":"a"}"#),
        LogFixture.event("e4", "2025-10-02T08:00:00+02:00", "u-2", "quiz.started", #"{"attempt":"a","quiz":"Q","questions":2}"#),
        LogFixture.event("e5", "2025-10-02T08:00:10+02:00", "u-2", "answer.selected", #"{"attempt":"a","question":"q1","choice":1,"correct":true}"#),
        LogFixture.event("e6", "2025-10-02T08:00:20+02:00", "u-2", "quiz.finished", #"{"attempt":"a"}"#),
        LogFixture.event("e7", "2025-10-02T09:00:00+02:00", "u-3", "quiz.started", #"{"attempt":"a","quiz":"Q","questions":2}"#),
        LogFixture.event("e8", "2025-10-02T09:00:20+02:00", "u-3", "quiz.finished", #"{"attempt":"a"}"#),
    ]

    @Test("items: JSON, CSV and text of a two-answer log")
    func items() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.log, to: dir.path("l.log"))
        let json = try CLI.run(["items", dir.path("l.log"), "--format", "json"])
        #expect(json.status == 0)
        #expect(json.stdout == #"{"from":null,"to":null,"quizzes":[{"quiz":"Q","started":3,"finished":2,"abandoned":1,"dropped_after":[{"answered":1,"attempts":1}],"questions":[{"question":"q1","answers":2,"correct":1,"p_correct":50,"choices":[{"choice":1,"count":1},{"choice":2,"count":1}],"top_wrong_choice":2,"discrimination":null,"median_ms":1200,"hinted":0}]}],"submissions":[]}"# + "\n")
        let csv = try CLI.run(["items", dir.path("l.log"), "--format", "csv", "--from", "2025-10-02"])
        #expect(csv.stdout == "kind,id,question,answers,correct,p_correct,choices,top_wrong_choice,discrimination,median_ms,hinted\n"
                + "quiz,Q,q1,1,1,100,1:1,,,,0\n")
        let text = try CLI.run(["items", dir.path("l.log"), "--format", "text"])
        #expect(text.stdout.contains("quiz Q: 3 started, 2 finished, 1 abandoned (after 1 answered: 1)"))
        #expect(try CLI.run(["items", dir.path("l.log")]).stdout == text.stdout)   // text is the default
        #expect(try CLI.run(["items", dir.path("l.log"), "--format", "json", "--from", "2025-10-03", "--to", "2025-10-01"]).status == 64)
    }

    @Test("leaderboard: ties, --exclude from a file, --top, JSON")
    func leaderboard() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(Self.log, to: dir.path("l.log"))
        try Data("u-2\n".utf8).write(to: dir.url.appendingPathComponent("out.txt"))
        let all = try CLI.run(["leaderboard", dir.path("l.log"), "--period", "week", "--on", "2025-10-01", "--json"])
        #expect(all.stdout == #"{"period":"week","from":"2025-09-29","to":"2025-10-05","by":"finished","rows":[{"rank":1,"user":"u-2","value":1,"finished":1},{"rank":1,"user":"u-3","value":1,"finished":1}]}"# + "\n")
        let excluded = try CLI.run(["leaderboard", dir.path("l.log"), "--period", "month", "--on", "2025-10-31",
                                    "--exclude", dir.path("out.txt"), "--json"])
        #expect(excluded.stdout.contains(#""rows":[{"rank":1,"user":"u-3","value":1,"finished":1}]"#))
        let text = try CLI.run(["leaderboard", dir.path("l.log"), "--period", "month", "--on", "2025-10-31", "--top", "1"])
        #expect(text.stdout.contains("Leaderboard, month 2025-10-01 to 2025-10-31, by finished quizzes"))
        #expect(try CLI.run(["leaderboard", dir.path("l.log"), "--on", "2025-10-01"]).status == 64)
        #expect(try CLI.run(["leaderboard", dir.path("l.log"), "--period", "year", "--on", "2025-10-01"]).status == 64)
        #expect(try CLI.run(["leaderboard", dir.path("l.log"), "--period", "week", "--on", "2025-10-01",
                             "--exclude", dir.path("missing.txt")]).status == 1)
    }
}
