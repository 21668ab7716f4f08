import Foundation
import Testing

/// The commands added beside ledger directories take a DIR too: each must
/// give on a split directory what it gives on the source log (the per-learner
/// ones read only that learner's log; the whole-log ones every learner log).
@Suite("commands on a ledger directory")
struct DirectoryCommandsTests {
    /// A split demo log and its first user.
    static func fixture() throws -> (TemporaryDirectory, String, String, String) {
        let (tmp, log, dir) = try LedgerDirectoryTests.split(users: 8, days: 20, seed: 7)
        let user = try #require(try LedgerDirectoryTests.lines(log).first?.user)
        return (tmp, log, dir, user)
    }

    @Test("items and leaderboard on DIR print the bytes they print on the source log")
    func wholeLog() throws {
        let (tmp, log, dir, _) = try Self.fixture()
        _ = tmp
        for args in [["items", "--format", "json"],
                     ["leaderboard", "--period", "month", "--on", "2025-10-15", "--json"]] {
            let source = try CLI.run([args[0], log] + args.dropFirst())
            let split = try CLI.run([args[0], dir] + args.dropFirst())
            #expect(source.status == 0 && split.status == 0, "\(args[0]): \(split.stderr)")
            #expect(!source.stdoutBytes.isEmpty)
            #expect(split.stdoutBytes == source.stdoutBytes, "\(args[0])")
        }
    }

    @Test("export --format xapi on DIR: the same statements as on the log (learner logs in name order)")
    func xapi() throws {
        let (tmp, log, dir, user) = try Self.fixture()
        _ = tmp
        let source = try CLI.run(["export", log, "--format", "xapi"])
        let split = try CLI.run(["export", dir, "--format", "xapi"])
        #expect(source.status == 0 && split.status == 0, "\(split.stderr)")
        #expect(!source.stdout.isEmpty)
        #expect(split.stdout.split(separator: "\n").sorted() == source.stdout.split(separator: "\n").sorted())
        let one = try CLI.run(["export", dir, "--format", "xapi", "--user", user])
        #expect(try one.stdoutBytes == CLI.run(["export", log, "--format", "xapi", "--user", user]).stdoutBytes)
    }

    @Test("export --user, explain and erase on DIR act on the learner's own log")
    func perLearner() throws {
        let (tmp, log, dir, user) = try Self.fixture()
        _ = tmp
        let learnerLog = dir + "/learners/" + String(try LedgerDirectoryTests.sha256(user).prefix(2)) + "/"
            + (try LedgerDirectoryTests.sha256(user)) + ".log"
        let exported = try CLI.run(["export", dir, "--user", user])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdoutBytes == Array(try Data(contentsOf: URL(fileURLWithPath: learnerLog))))
        let explainDir = try CLI.run(["explain", dir, "--user", user, "streak.longest", "--json"])
        let explainLog = try CLI.run(["explain", log, "--user", user, "streak.longest", "--json"])
        #expect(explainDir.status == 0, "\(explainDir.stderr)")
        // The same value and rule; the events' seqs are the learner log's.
        let a = try #require(try JSONSerialization.jsonObject(with: Data(explainDir.stdoutBytes)) as? [String: Any])
        let b = try #require(try JSONSerialization.jsonObject(with: Data(explainLog.stdoutBytes)) as? [String: Any])
        #expect(a["value"] as? Int == b["value"] as? Int && a["rule"] as? String == b["rule"] as? String)
        #expect((a["events"] as? [Any])?.count == (b["events"] as? [Any])?.count)

        let erased = try CLI.run(["erase", dir, "--user", user])
        #expect(erased.status == 0, "\(erased.stderr)")
        let text = try String(contentsOfFile: learnerLog, encoding: .utf8)
        #expect(!text.contains(user) && text.contains("\"redacted\""))
        #expect(try CLI.run(["verify", dir]).status == 0)
        let missing = try CLI.run(["erase", dir, "--user", "nobody-here"])
        #expect(missing.status == 1 && missing.stderr.contains("no learner log"))
    }

    @Test("import on DIR appends to the learner's log, made when new")
    func importIntoDirectory() throws {
        let (tmp, _, dir, _) = try Self.fixture()
        _ = tmp
        let resources = ImportTests.resources
        let r = try CLI.run(["import", dir, "--from", "cryptogram", "cryptogram/attempts.csv", "--user", "new-learner"],
                            in: resources)
        #expect(r.status == 0, "\(r.stderr)")
        let state = try CLI.run(["state", dir, "--user", "new-learner", "--json"])
        #expect(state.status == 0 && state.stdout.contains("\"puzzles\":[{"), "\(state.stderr)")
        #expect(try CLI.run(["verify", dir]).status == 0)
    }
}

/// `export --after` hands over every verified line, whatever it holds.
@Suite("raw export after an erasure")
struct RawExportAfterErasureTests {
    @Test("export --after 0 of an erased log prints the whole file, stubs included; --after N the lines after N")
    func stubsAreExported() throws {
        let tmp = try TemporaryDirectory()
        let log = try LogFixture.demo(in: tmp, users: 4, days: 5, seed: 3)
        let user = try #require(try LedgerDirectoryTests.lines(log).first?.user)
        #expect(try CLI.run(["erase", log, "--user", user]).status == 0)
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        let all = try CLI.run(["export", log, "--after", "0"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdoutBytes == file)
        let lines = file.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        let tail = try CLI.run(["export", log, "--after", "\(lines.count - 1)"])
        #expect(tail.stdoutBytes == Array(lines.last ?? []) + [0x0A])
    }
}
