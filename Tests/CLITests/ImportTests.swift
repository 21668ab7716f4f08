import Foundation
import Testing

/// `progress-ledger import` (docs/import.md) on the fixtures written from the
/// seeds' own types: `state --json` checked member by member against what the
/// old app showed (expected-*.json, derived by hand), importing twice, and
/// every kind of bad row of bad-rows.json.
@Suite("import from the apps' stores")
struct ImportTests {
    static let resources = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Resources/import")

    static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: resources.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every member of `expected` (recursively) is in `actual` with the same value.
    static func compare(_ expected: Any, _ actual: Any?, _ path: String) {
        switch expected {
        case let e as [String: Any]:
            guard let a = actual as? [String: Any] else { Issue.record("\(path): not an object: \(String(describing: actual))"); return }
            for (k, v) in e { compare(v, a[k], path + "." + k) }
        case let e as [Any]:
            guard let a = actual as? [Any], a.count == e.count else {
                Issue.record("\(path): \(e.count) items expected, got \(String(describing: actual))"); return
            }
            for (i, v) in e.enumerated() { compare(v, a[i], "\(path)[\(i)]") }
        case is NSNull:
            #expect(actual is NSNull, "\(path)")
        case let e as NSObject:
            #expect((actual as? NSObject)?.isEqual(e) == true, "\(path): expected \(e), got \(String(describing: actual))")
        default:
            Issue.record("\(path): unexpected value \(expected)")
        }
    }

    /// Imports each argument list into a fresh log; returns the log and the events each appended.
    static func importAll(_ imports: [[String]], into dir: TemporaryDirectory) throws -> (log: String, appended: [Int]) {
        let log = dir.path("learner.log")
        var appended: [Int] = []
        for args in imports {
            let before = lines(log)
            let run = try CLI.run(["import", log] + args, in: resources)
            #expect(run.status == 0, "\(args): \(run.stderr)")
            #expect(run.stderr.contains("appended") || run.stderr.contains("nothing to grant"), "\(run.stderr)")
            appended.append(lines(log) - before)
        }
        return (log, appended)
    }

    static func lines(_ path: String) -> Int {
        ((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()).filter { $0 == 0x0A }.count
    }

    static func state(_ log: String, _ args: [String]) throws -> [String: Any] {
        let run = try CLI.run(["state", log] + args)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdoutBytes)) as? [String: Any])
    }

    /// The import lists of one expected-*.json: `import`, or each of `imports`.
    static func importLists(_ spec: [String: Any], key: String = "import") -> [[String]] {
        if let list = spec["imports"] as? [[String]] { return list }
        return (spec[key] as? [String]).map { [$0] } ?? []
    }

    @Test("each store's fixture gives the state the old app showed, and a second import appends nothing",
          arguments: [("expected-daily-quiz.json", "import"), ("expected-cryptogram.json", "import"), ("expected-cryptogram.json", "import_csv"),
                      ("expected-sat-attempts.json", "import"), ("expected-quiz-app.json", "import"),
                      ("expected-quiz-app.json", "import_as_string")])
    func storeGivesExpectedState(file: String, key: String) throws {
        let spec = try Self.json(file)
        let dir = try TemporaryDirectory()
        let imports = Self.importLists(spec, key: key)
        let (log, appended) = try Self.importAll(imports, into: dir)
        let want = try (spec["events_appended"] as? [Int]) ?? [#require(spec["events_appended"] as? Int)]
        #expect(appended == want)
        let state = try Self.state(log, try #require(spec["state"] as? [String]))
        Self.compare(try #require(spec["expect"]), state, file)
        // Importing the same store again appends nothing; the log's bytes stay.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let (_, again) = try Self.importAll(imports, into: dir)
        #expect(again.allSatisfy { $0 == 0 })
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == bytes)
    }

    @Test("the SQLite file and its CSV make the same events")
    func sqliteEqualsCSV() throws {
        let dir = try TemporaryDirectory()
        let a = try CLI.run(["import", dir.path("a.log"), "--from", "cryptogram", "cryptogram/attempts.sqlite", "--user", "u", "--dry-run"], in: Self.resources)
        let b = try CLI.run(["import", dir.path("b.log"), "--from", "cryptogram", "cryptogram/attempts.csv", "--user", "u", "--dry-run"], in: Self.resources)
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.split(separator: "\n").count == 6)
        #expect(!FileManager.default.fileExists(atPath: dir.path("a.log")))   // --dry-run appends nothing
        #expect(a.stderr.contains("+00:00"))   // the assumed offset is said
    }

    @Test("an unseeded quiz-app store at 0 hints appends nothing and says so")
    func unseeded() throws {
        let spec = try #require(try Self.json("expected-quiz-app.json")["unseeded"] as? [String: Any])
        let dir = try TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: dir.path("learner.log"), contents: Data())
        let (log, appended) = try Self.importAll(Self.importLists(spec), into: dir)
        #expect(appended == [0])
        Self.compare(try #require(spec["expect"]), try Self.state(log, ["--user", "learner-7", "--json"]), "unseeded")
    }

    /// The bad-rows.json cases.
    static var badRows: [[String: Any]] {
        (try? ImportTests.json("bad-rows.json"))?["cases"] as? [[String: Any]] ?? []
    }
    static var badRowIndices: [Int] { Array(badRows.indices) }

    @Test("each kind of bad row is named by file, row and member, and nothing is appended",
          arguments: badRowIndices)
    func badRow(index: Int) throws {
        let c = Self.badRows[index]
        let dir = try TemporaryDirectory()
        let file = try #require(c["file"] as? String)
        let args = ["import", dir.path("learner.log"), "--from", try #require(c["from"] as? String), file,
                    "--user", "learner-7"] + (c["args"] as? [String] ?? [])
        let run = try CLI.run(args, in: Self.resources)
        #expect(run.status == 1, "\(file)")
        let first = run.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix(file + ": "), "\(first)")
        if let row = c["row"] as? String { #expect(first.contains(": " + row + ": "), "\(first)") }
        if let member = c["member"] as? String { #expect(first.contains(member + ": "), "\(first)") }
        #expect(run.stderr.contains("nothing was appended"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("learner.log")))
    }

    @Test("the same id with other content (another --utc-offset) is refused and appends nothing")
    func conflictingReimport() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("learner.log")
        let base = ["import", log, "--from", "cryptogram", "cryptogram/attempts.csv", "--user", "u"]
        #expect(try CLI.run(base, in: Self.resources).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let other = try CLI.run(base + ["--utc-offset", "+03:00"], in: Self.resources)
        #expect(other.status == 1, "\(other.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    }

    @Test("made-up members are marked: a history entry's start and answers carry assumed, its finish only imported")
    func marks() throws {
        let dir = try TemporaryDirectory()
        let run = try CLI.run(["import", dir.path("l.log"), "--from", "daily-quiz", "daily-quiz/userdefaults.json",
                               "--user", "learner-7", "--device", "iphone", "--utc-offset", "+03:00", "--dry-run"], in: Self.resources)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(events.count == 52)
        // The history entry 5B1F6E0C-… (4 of 5; date 782373600.412071 s after 2001-01-01Z =
        // 2025-10-17T06:00:00.412Z, milliseconds rounded half up, = 09:00:00.412 at +03:00).
        let k = try #require(events.firstIndex { $0["type"] as? String == "quiz.started" && $0["at"] as? String == "2025-10-17T09:00:00.412+03:00" })
        let start = events[k]
        #expect(start["device"] as? String == "iphone")
        let data = try #require(start["data"] as? [String: Any])
        #expect(data["imported"] as? String == "daily-quiz")
        #expect(data["assumed"] as? [String] == ["at"])
        #expect(data["title"] as? String == "Quran Basics" && data["questions"] as? Int == 5)
        let answers = events[(k + 1)...(k + 5)].compactMap { $0["data"] as? [String: Any] }
        #expect(answers.map { $0["correct"] as? Bool } == [true, true, true, true, false])
        #expect(answers.map { $0["question"] as? String } == ["0", "1", "2", "3", "4"])
        #expect(answers.allSatisfy { $0["assumed"] as? [String] == ["at", "question", "choice", "correct"] })
        let finish = try #require(events[k + 6]["data"] as? [String: Any])
        #expect(events[k + 6]["type"] as? String == "quiz.finished" && finish["assumed"] == nil && finish["imported"] as? String == "daily-quiz")
        #expect(run.stderr.contains("+03:00") && run.stderr.contains("made up"))
    }

    @Test("a quiz-app store with hints and no --at is refused: it keeps no time")
    func quizAppNeedsAt() throws {
        let dir = try TemporaryDirectory()
        let run = try CLI.run(["import", dir.path("l.log"), "--from", "quiz-app", "quiz-app/persist-root.json", "--user", "u"], in: Self.resources)
        #expect(run.status == 1)
        #expect(run.stderr.contains("--at"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("l.log")))
    }
}
