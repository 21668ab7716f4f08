import Foundation
import Testing

/// The learner's dashboard (`state --format html`) and the question analysis
/// page (`items --format html`) opened in headless Chromium, as the report's
/// page is: the charts are in the rendered DOM with one mark per value, and
/// nothing is scripted or loaded from outside.
@Suite("dashboard and items pages in a real browser", .enabled(if: Browser.path != nil || Browser.isCI))
struct AnalyticsBrowserTests {
    func rendered(_ page: String, in dir: TemporaryDirectory) throws -> ReportBrowserTests.Rendered? {
        try ReportBrowserTests.rendered(page, in: dir)
    }

    @Test("the dashboard: a mark per day, per category, per skill, per calendar day and per forecast day; no script, no URL")
    func dashboard() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 6, days: 9, seed: 11)
        let page = dir.path("u.html")
        let r = try CLI.run(["state", log, "--user", "u-001", "--format", "html", "--out", page])
        try #require(r.status == 0, "\(r.stderr)")
        let raw = String(decoding: dir.bytes("u.html"), as: UTF8.self)
        #expect(!raw.contains("<script") && !raw.contains("://") && !raw.contains("url("))
        let json = try CLI.run(["state", log, "--user", "u-001", "--json"])
        let state = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let plan = try #require(state["study_plan"] as? [String: Any])
        let categories = try #require(plan["categories"] as? [[String: Any]])
        let skills = categories.reduce(0) { $0 + (($1["skills"] as? [Any])?.count ?? 0) }
        let stats = try #require(state["stats"] as? [String: Any])
        let first = try #require(stats["first_active"] as? String), d = try #require(state["day"] as? String)
        guard let dom = try rendered(page, in: dir) else { return }
        // Answers without a category are in the skills' chart only.
        #expect(dom.marks["chart-categories"] == categories.filter { $0["category"] is String }.count)
        #expect(dom.marks["chart-skills"] == skills)
        #expect(dom.marks["chart-calendar"] == 84)              // 12 weeks
        #expect(dom.marks["chart-time"] == days(from: first, to: d))
        #expect((dom.marks["chart-score-daily"] ?? 0) > 0)
        #expect(dom.marks["chart-score-daily"] == dom.marks["chart-score-all"])
        #expect(dom.scripts == 0)
        #expect(dom.remote.isEmpty)
        #expect(dom.marks["chart-review-forecast"] == 14)      // D and the 13 days after it
        // Today's review table lists the day's plan within the budget; with the budget spent
        // (a learner who followed the plan: `today` 0) the section says so instead.
        let review = try #require(state["review"] as? [String: Any])
        let today = try #require(review["today"] as? [Any]).count
        #expect(dom.tables == (today > 0 ? ["table-review"] : []) + ["table-quizzes", "table-puzzles"])
        #expect(raw.contains("id=\"review-none\"") == (today == 0))
        let shot = try Browser.run(["--screenshot=\(dir.path("u.png"))", "--window-size=1100,3000"], page: page)
        #expect(shot.status == 0, "\(shot.stderr)")
        #expect(dir.bytes("u.png").count > 20_000, "the screenshot is suspiciously small")
    }

    @Test("the items page: a bar per question, a drop-off bar per k, a table per quiz")
    func items() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 6, days: 4, seed: 11)
        let page = dir.path("items.html")
        let r = try CLI.run(["items", log, "--format", "html", "--out", page])
        try #require(r.status == 0, "\(r.stderr)")
        let json = try CLI.run(["items", log, "--format", "json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let quizzes = try #require(items["quizzes"] as? [[String: Any]])
        let firstQuiz = try #require(quizzes.first)
        guard let dom = try rendered(page, in: dir) else { return }
        #expect(dom.marks["chart-quiz-0-right"] == (firstQuiz["questions"] as? [Any])?.count)
        for (i, quiz) in quizzes.enumerated() {
            let drops = (quiz["dropped_after"] as? [Any])?.count ?? 0
            #expect(dom.marks["chart-quiz-\(i)-drop"] == (drops == 0 ? nil : drops))
        }
        #expect(dom.tables.filter { $0.hasPrefix("table-quiz-") }.count == quizzes.count)
        #expect(dom.scripts == 0)
    }

    private func days(from: String, to: String) -> Int? {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "UTC")
        guard let a = f.date(from: from), let b = f.date(from: to) else { return nil }
        return Int((b.timeIntervalSince(a) / 86_400).rounded()) + 1
    }
}
