import Foundation
import Testing

/// The dashboard of a learner who has just begun (`state --format html`):
/// "nothing yet" where a chart would be empty, no "no category" bar, a card
/// whose date never breaks, puzzle times written alike.
@Suite("a new learner's dashboard")
struct NewLearnerDashboardTests {
    /// The README's four events (a grant, a daily quiz started, one answer, a hint), and two puzzles.
    static let events = """
        {"id":"e-1","at":"2025-10-21T08:14:00+03:00","user":"u-42","type":"hints.granted","data":{"amount":3,"reason":"seed"}}
        {"id":"e-2","at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"quiz.started","data":{"attempt":"a-1","quiz":"quran-basics","questions":5,"daily":true}}
        {"id":"e-3","at":"2025-10-21T08:16:10+03:00","user":"u-42","type":"answer.selected","data":{"attempt":"a-1","question":"q1","choice":1,"correct":true,"skill":"inference"}}
        {"id":"e-4","at":"2025-10-21T08:16:40+03:00","user":"u-42","type":"hint.used","data":{"attempt":"a-1","question":"q2","hint":"fifty_fifty"}}

        """

    static func page(_ extra: String = "") throws -> String {
        let dir = try TemporaryDirectory()
        let log = dir.path("learner.log")
        #expect(try CLI.run(["append", log], input: events + extra).status == 0)
        let r = try CLI.run(["state", log, "--user", "u-42", "--format", "html"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    @Test("no quiz finished, no category, no streak day: each chart's place says 'Nothing yet' and why; no empty chart, no 'no category' bar")
    func nothingYet() throws {
        let html = try Self.page()
        for title in ["Daily quiz score", "Score, all quizzes", "Accuracy by category", "Active days", "Time spent per day"] {
            #expect(html.contains("<figure class=\"nothing-yet\"><h3>\(title)</h3><p>Nothing yet: "), "\(title)")
        }
        #expect(html.contains("no active day: a day is active with a finished daily quiz (1 learning day so far)."))
        for id in ["chart-score-daily", "chart-score-all", "chart-categories", "chart-calendar", "chart-time"] { #expect(!html.contains("id=\"\(id)\""), "\(id)") }
        #expect(!html.contains("no category"))
        // What there is, is drawn: the answer's skill, the review ahead.
        for id in ["chart-skills", "chart-review-forecast"] { #expect(html.contains("id=\"\(id)\""), "\(id)") }
        // The daily quiz card: "Continue (2/5)", its date in a span that never breaks.
        #expect(html.contains("<div class=\"value\">Continue (2/5)</div><div class=\"name\">daily quiz <span class=\"date\">2025-10-21</span></div>"))
        #expect(html.contains(".card .date { white-space: nowrap; }"))
    }

    @Test("puzzle best times to one decimal, always: 278 is 278.0 beside 104.5")
    func puzzleTimes() throws {
        let html = try Self.page("""
            {"id":"p-1","at":"2025-10-21T09:00:00+03:00","user":"u-42","type":"puzzle.completed","data":{"puzzle":"p-a","encoding":"caesar","seconds":278}}
            {"id":"p-2","at":"2025-10-21T09:10:00+03:00","user":"u-42","type":"puzzle.completed","data":{"puzzle":"p-b","encoding":"atbash","seconds":104.5}}
            {"id":"p-3","at":"2025-10-21T09:20:00+03:00","user":"u-42","type":"puzzle.completed","data":{"puzzle":"p-c","encoding":"caesar","seconds":12.25}}

            """)
        let table = try #require(html.components(separatedBy: "<table id=\"table-puzzles\">").last?.components(separatedBy: "</table>").first)
        #expect(table.contains("<th scope=\"row\">p-a</th><td>caesar</td><td>1</td><td>0</td><td>278.0</td>"), "\(table)")
        #expect(table.contains("<td>104.5</td>"))
        #expect(table.contains("<td>12.3</td>") || table.contains("<td>12.2</td>"))   // 12.25 to one decimal
    }
}
