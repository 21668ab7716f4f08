import Foundation
import Testing

/// The HTML report opened in a real browser (headless Chromium): the page
/// parses, and every chart is in the rendered DOM with one mark per value.
///
/// Locally the tests are skipped when Chromium is not installed; with `CI` set
/// they run and fail with a message saying how to install it.
@Suite("report --format html in a real browser", .enabled(if: Browser.path != nil || Browser.isCI))
struct ReportBrowserTests {
    /// Counts, in the browser's serialised DOM, the elements of class `mark`
    /// inside each `<svg id=...>`, and notes scripts and remote references.
    static let counter = #"""
import json, sys
from html.parser import HTMLParser

class Counter(HTMLParser):
    def __init__(self):
        super().__init__()
        self.svg = None
        self.marks = {}
        self.empty = {}
        self.scripts = 0
        self.remote = []
        self.tables = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'svg':
            self.svg = a.get('id')
            self.marks.setdefault(self.svg, 0)
            self.empty.setdefault(self.svg, 0)
        classes = (a.get('class') or '').split()
        if self.svg and 'mark' in classes:
            self.marks[self.svg] += 1
            if 'empty' in classes:
                self.empty[self.svg] += 1
        if tag == 'script':
            self.scripts += 1
        if tag == 'table':
            self.tables.append(a.get('id'))
        for k, v in attrs:
            if k in ('src', 'href') and v and '://' in v:
                self.remote.append(v)
    def handle_endtag(self, tag):
        if tag == 'svg':
            self.svg = None

c = Counter()
c.feed(open(sys.argv[1], encoding='utf-8').read())
print(json.dumps({"marks": c.marks, "empty": c.empty, "scripts": c.scripts, "remote": c.remote, "tables": c.tables}))
"""#

    struct Rendered {
        let marks: [String: Int]
        let empty: [String: Int]
        let scripts: Int
        let remote: [String]
        let tables: [String]
    }

    /// Writes the report page of `log`, loads it in Chromium and counts what the browser rendered.
    func render(_ log: String, in dir: TemporaryDirectory) throws -> (Rendered, json: [String: Any])? {
        let page = dir.path("report.html")
        let r = try CLI.run(["report", log, "--format", "html", "--out", page])
        try #require(r.status == 0, "\(r.stderr)")
        guard let rendered = try Self.rendered(page, in: dir) else { return nil }
        let json = try CLI.run(["report", log, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        return (rendered, report)
    }

    /// Loads `page` in Chromium and counts what the browser rendered; nil when there is no browser.
    static func rendered(_ page: String, in dir: TemporaryDirectory) throws -> Rendered? {
        let dom = try Browser.run(["--dump-dom"], page: page)
        guard Browser.path != nil else { return nil }
        try #require(dom.status == 0, "chromium failed: \(dom.stderr)")
        try #require(dom.stdout.contains("</svg>"), "the browser's DOM has no chart: \(dom.stdout.prefix(300))")
        try Data(dom.stdout.utf8).write(to: dir.url.appendingPathComponent("dom.html"))
        let py = try CLI.python(Self.counter, [dir.path("dom.html")])
        try #require(py.status == 0, "\(py.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as? [String: Any])
        let rendered = Rendered(marks: o["marks"] as? [String: Int] ?? [:], empty: o["empty"] as? [String: Int] ?? [:],
                                scripts: o["scripts"] as? Int ?? -1, remote: o["remote"] as? [String] ?? ["?"],
                                tables: o["tables"] as? [String] ?? [])
        return rendered
    }

    @Test("a demo report: five charts, one mark per day in the per-day charts, per skill and per streak length")
    func demoReport() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 12, days: 9, seed: 11)
        guard let (page, report) = try render(log, in: dir) else { return }
        let days = try #require(report["days"] as? [[String: Any]])
        let skills = try #require(report["skills"] as? [[String: Any]])
        let streaks = try #require((report["streaks"] as? [String: Any])?["distribution"] as? [[String: Any]])
        #expect(days.count >= 9)
        #expect(page.marks["chart-active-users"] == days.count)
        #expect(page.marks["chart-completion-rate"] == days.count)
        #expect(page.marks["chart-accuracy"] == days.count)
        #expect(page.marks["chart-skills"] == skills.count)
        // A bar for every length from 0 to the longest (spaced by value; lengths nobody has are empty bars).
        let longest = streaks.compactMap { $0["current"] as? Int }.max() ?? 0
        #expect(page.marks["chart-streaks"] == longest + 1)
        #expect(streaks.count <= longest + 1)
        #expect(skills.count > 3)
        #expect(page.scripts == 0)
        #expect(page.remote.isEmpty)
        #expect(page.tables == ["table-days", "table-skills", "table-streaks"])
    }

    @Test("days without data still get a mark: hollow in the percentage charts")
    func emptyDays() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(ReportTests.midnightLog, to: dir.path("l.log"))
        guard let (page, _) = try render(dir.path("l.log"), in: dir) else { return }
        #expect(page.marks["chart-active-users"] == 4)
        #expect(page.marks["chart-completion-rate"] == 4)
        #expect(page.empty["chart-completion-rate"] == 2)   // 03-02 and 03-03: no attempt started
        #expect(page.empty["chart-accuracy"] == 2)
    }

    @Test("a screenshot renders the page at full size")
    func screenshot() throws {
        let dir = try TemporaryDirectory()
        try LogFixture.write(ReportTests.midnightLog, to: dir.path("l.log"))
        let page = dir.path("report.html")
        _ = try CLI.run(["report", dir.path("l.log"), "--format", "html", "--out", page])
        let shot = try Browser.run(["--screenshot=\(dir.path("r.png"))", "--window-size=1200,2400"], page: page)
        guard Browser.path != nil else { return }
        #expect(shot.status == 0, "\(shot.stderr)")
        let png = dir.bytes("r.png")
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "no PNG written")
        #expect(png.count > 20_000, "the screenshot is suspiciously small: \(png.count) bytes")
    }
}
