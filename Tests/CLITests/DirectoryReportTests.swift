import Foundation
import Ledger
import Testing

/// `report DIR` and `verify DIR` read each learner log on its own and keep of
/// a finished learner only what the report needs (issue 13): the streak
/// distribution must still be the single log's, worked out by hand here, for
/// learners whose logs end on different days and whose last daily quiz is 0,
/// 1, 2 or many days before the report's last day, with and without
/// `--from`/`--to`; and a learner log holding another learner's event is
/// refused by both.
@Suite("report DIR and verify DIR on learner logs that end on different days")
struct DirectoryReportTests {
    typealias E = LogFixture

    /// A finished daily quiz of one question: started at `start`, finished at `end` (both RFC 3339).
    static func daily(_ user: String, _ tag: String, start: String, end: String) -> [String] {
        [E.event("\(user)-\(tag)-s", start, user, "quiz.started", #"{"attempt":"a-\#(tag)","quiz":"daily-\#(tag)","questions":1,"daily":true}"#),
         E.event("\(user)-\(tag)-a", start, user, "answer.selected", #"{"attempt":"a-\#(tag)","question":"q1","choice":1,"correct":true}"#),
         E.event("\(user)-\(tag)-f", end, user, "quiz.finished", #"{"attempt":"a-\#(tag)"}"#)]
    }

    /// A daily quiz started and finished at noon UTC on `day` (`MM-DD` of October 2025).
    static func daily(_ user: String, _ day: String) -> [String] {
        daily(user, day, start: "2025-\(day)T12:00:00Z", end: "2025-\(day)T12:05:00Z")
    }

    /// Seven learners; the last day with an event is 10-10.
    /// - zero: daily quizzes 10-08, 10-09, 10-10 (ends on the last day)
    /// - one: 10-07, 10-08, and one started 10-09 at 23:55 (+02:00) and finished
    ///   10-10 at 00:05: a streak day on 10-09, the day before the last
    /// - two: 10-07, 10-08 (two days before)
    /// - many: 10-01, 10-02
    /// - gap: 10-05, 10-06, then 10-08, 10-09 (the last run only counts)
    /// - none: a puzzle on 10-10 only (active, no streak)
    /// - reset: 10-08, 10-09, then a quizzes reset on 10-10
    static let log: [String] = {
        var lines: [String] = []
        lines += daily("many", "10-01") + daily("many", "10-02")
        lines += daily("gap", "10-05") + daily("gap", "10-06")
        lines += daily("one", "10-07") + daily("two", "10-07")
        lines += daily("zero", "10-08") + daily("one", "10-08") + daily("two", "10-08") + daily("gap", "10-08") + daily("reset", "10-08")
        lines += daily("zero", "10-09") + daily("gap", "10-09") + daily("reset", "10-09")
        lines += daily("one", "10-09n", start: "2025-10-09T23:55:00+02:00", end: "2025-10-10T00:05:00+02:00")
        lines += daily("zero", "10-10")
        lines.append(E.event("none-p", "2025-10-10T09:00:00Z", "none", "puzzle.completed", #"{"puzzle":"c-1","encoding":"caesar","seconds":30}"#))
        lines.append(E.event("reset-r", "2025-10-10T09:00:00Z", "reset", "progress.reset", #"{"scope":"quizzes"}"#))
        return lines
    }()

    /// The log, and the directory split from it.
    static func fixture() throws -> (TemporaryDirectory, String, String) {
        let tmp = try TemporaryDirectory()
        let log = tmp.path("all.log")
        try LogFixture.write(Self.log, to: log)
        let dir = tmp.path("ledger.d")
        let r = try CLI.run(["split", log, dir])
        try #require(r.status == 0, "split: \(r.stderr)")
        return (tmp, log, dir)
    }

    /// The report's streak day and distribution (`current: users`).
    static func streaks(_ json: [UInt8]) throws -> (day: String?, distribution: [Int: Int]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let streaks = try #require(object["streaks"] as? [String: Any])
        let buckets = try #require(streaks["distribution"] as? [[String: Int]])
        var distribution: [Int: Int] = [:]
        for bucket in buckets { distribution[try #require(bucket["current"])] = bucket["users"] }
        return (streaks["day"] as? String, distribution)
    }

    @Test("the streaks at the last day, worked by hand, for every range: DIR prints the single log's bytes",
          arguments: [
            // No range: the last day is 10-10. zero 3 (10-08..10); one 3 (10-07..09, alive: 10-09 is the day
            // before); gap 2 (10-08..09); two, many: 0; none: no streak day; reset: cleared on 10-10.
            ([String](), "2025-10-10", [0: 4, 2: 1, 3: 2]),
            // --to 10-09: events of 10-10 are not streak days (zero's last quiz, reset's reset); none is
            // not active in the range. zero 2, one 3, two 2 (ends the day before), gap 2, reset 2, many 0.
            (["--to", "2025-10-09"], "2025-10-09", [0: 1, 2: 4, 3: 1]),
            // 10-05..10-08: zero 1, one 2, two 2, gap 1 (10-08 after a gap), reset 1; many and none
            // are not active in the range.
            (["--from", "2025-10-05", "--to", "2025-10-08"], "2025-10-08", [1: 3, 2: 2]),
            // From 10-10 to the last day: zero 3; none and reset active that day, 0.
            (["--from", "2025-10-10"], "2025-10-10", [0: 2, 3: 1]),
            // To 10-12, two days after every learner's last streak day: all 0.
            (["--to", "2025-10-12"], "2025-10-12", [0: 7]),
            // 10-11 is the day after zero's last streak day: still alive; one's (10-09) is two days before.
            (["--to", "2025-10-11"], "2025-10-11", [0: 6, 3: 1]),
          ])
    func handWorked(range: [String], day: String, distribution: [Int: Int]) throws {
        let (tmp, log, dir) = try Self.fixture()
        _ = tmp
        let single = try CLI.run(["report", log, "--format", "json"] + range)
        let split = try CLI.run(["report", dir, "--format", "json"] + range)
        #expect(single.status == 0 && split.status == 0, "\(single.stderr)\(split.stderr)")
        let (reportDay, reportDistribution) = try Self.streaks(single.stdoutBytes)
        #expect(reportDay == day)
        #expect(reportDistribution == distribution, "\(range)")
        #expect(split.stdoutBytes == single.stdoutBytes, "\(range)")
    }

    @Test("every learner log ends on its own day; the directory has one log per learner")
    func logsEndOnDifferentDays() throws {
        let (tmp, _, dir) = try Self.fixture()
        _ = tmp
        let files = try LedgerDirectoryTests.learnerFiles(dir)
        #expect(files.count == 7)
        let lastDays = try Set(files.map { file in try #require(LedgerDirectoryTests.lines(file).last?.at.prefix(10)) })
        #expect(lastDays == ["2025-10-02", "2025-10-08", "2025-10-09", "2025-10-10"])
    }

    /// A directory whose first learner log also holds an event of another
    /// learner, appended by the ledger's writer (a valid chain).
    static func misrouted() throws -> (TemporaryDirectory, String, String) {
        let (tmp, _, dir) = try Self.fixture()
        let file = try #require(LedgerDirectoryTests.learnerFiles(dir).first)
        let owner = try #require(LedgerDirectoryTests.lines(file).first?.user)
        let stranger = owner == "zero" ? "one" : "zero"
        try LogFixture.append([E.event("stray-1", "2025-10-10T10:00:00Z", stranger, "puzzle.failed", #"{"puzzle":"c-9","encoding":"caesar"}"#)],
                              to: file)
        return (tmp, dir, file)
    }

    @Test("a learner log holding another learner's event: verify DIR and report DIR name its line")
    func misroutedEvent() throws {
        let (tmp, dir, file) = try Self.misrouted()
        _ = tmp
        let line = try LedgerDirectoryTests.lines(file).count
        let verify = try CLI.run(["verify", dir])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("\(file): line \(line): misrouted: an event of another learner"), "\(verify.stdout)")
        #expect(verify.stdout.contains("1 of 7 learner logs damaged"), "\(verify.stdout)")
        let report = try CLI.run(["report", dir, "--format", "json"])
        #expect(report.status == 1)
        #expect(report.stdout.isEmpty)
        #expect(report.stderr.contains("\(file): line \(line): misrouted"), "\(report.stderr)")
    }

    @Test("a damaged learner log: report DIR refuses it with verify's message")
    func damaged() throws {
        let (tmp, _, dir) = try Self.fixture()
        _ = tmp
        let file = try #require(LedgerDirectoryTests.learnerFiles(dir).last { ((try? LedgerDirectoryTests.lines($0).count) ?? 0) >= 3 })
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"seq\":2,", with: "\"seq\":7,")
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let report = try CLI.run(["report", dir, "--format", "json"])
        #expect(report.status == 1)
        #expect(report.stderr.contains("\(file): line 2: seq_gap"), "\(report.stderr)")
        let verify = try CLI.run(["verify", dir])
        #expect(verify.stdout.contains("\(file): line 2: seq_gap"), "\(verify.stdout)")
    }

    /// The directory with a torn tail (bytes after the last LF) at the end of
    /// its first and last learner logs, in name order.
    static func torn() throws -> (TemporaryDirectory, String, String, [String]) {
        let (tmp, log, dir) = try Self.fixture()
        let files = try LedgerDirectoryTests.learnerFiles(dir)
        let torn = [try #require(files.first), try #require(files.last)]
        for file in torn { try FileHandle(forWritingTo: URL(fileURLWithPath: file)).seekToEndAndWrite(#"{"v":1,"seq":"#) }
        return (tmp, log, dir, torn)
    }

    @Test("a torn tail in a learner log: report DIR warns as report LOG and verify DIR do, and reports the complete lines")
    func tornTail() throws {
        let (tmp, log, dir, torn) = try Self.torn()
        _ = tmp
        let report = try CLI.run(["report", dir, "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdoutBytes == (try CLI.run(["report", log, "--format", "json"])).stdoutBytes)
        // report LOG on each torn learner log prints the very line (the path is the same).
        let warnings = try torn.map { file in try CLI.run(["report", file, "--format", "json"]).stderr }
        #expect(warnings.allSatisfy { $0.contains(": warning: line ") && $0.contains(": torn_tail: 13 bytes after the last LF") })
        #expect(report.stderr == warnings.joined(), "\(report.stderr)")
        // verify DIR prints the same warnings, in the same (name) order.
        let verify = try CLI.run(["verify", dir])
        #expect(verify.status == 0)
        #expect(report.stderr == verify.stderr)
    }
}
