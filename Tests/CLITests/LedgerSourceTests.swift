import Events
import Foundation
import Ledger
import LedgerAnalytics
import Projections
import Testing

/// `LedgerSource`, the library's one way to make a report and to visit every
/// learner's records, called directly: the same report and the same warnings
/// from a directory as from its logs.
@Suite("LedgerSource: reports and every learner's records from logs or a directory")
struct LedgerSourceTests {
    /// Runs `body` collecting the warnings it is given.
    static func warned<T>(_ body: ((ReadWarning) -> Void) throws -> T) rethrows -> (T, [ReadWarning]) {
        var warnings: [ReadWarning] = []
        let value = try body { warnings.append($0) }
        return (value, warnings)
    }

    @Test("a directory with torn learner logs: the log's report, each torn tail warned in name order as when each log is read")
    func tornTails() throws {
        let (tmp, log, dir, torn) = try DirectoryReportTests.torn()
        _ = tmp
        let source = try LedgerSource(paths: [dir])
        guard case .directory = source else { Issue.record("\(dir) is not read as a directory"); return }
        let (report, warnings) = try Self.warned { try source.report(warning: $0) }
        #expect(report.json == (try LedgerSource(paths: [log]).report()).json)
        let (_, each) = try Self.warned { warn in try torn.map { try LedgerSource.logs([$0]).report(warning: warn) } }
        #expect(warnings == each)
        #expect(warnings.map { if case .tornTail(let path, _) = $0 { path } else { "" } } == torn)
        #expect(warnings.first?.description.hasPrefix("\(torn[0]): warning: line ") == true)
        // Visiting every record warns the same, and sees every event of the log.
        var ids: [String] = []
        let (_, visited) = try Self.warned { warn in try source.forEachRecord(warning: warn) { ids.append($0.id) } }
        #expect(visited == warnings)
        #expect(ids.sorted() == (try LedgerDirectoryTests.lines(log)).map(\.id).sorted())
    }

    @Test("several logs: an id read twice counts once; with other content, a warning naming both places")
    func severalLogs() throws {
        let tmp = try TemporaryDirectory()
        let (a, b) = (tmp.path("a.log"), tmp.path("b.log"))
        let puzzle = #"{"puzzle":"c-1","encoding":"caesar","seconds":30}"#
        try LogFixture.write([LogFixture.event("e-1", "2025-10-10T09:00:00Z", "u", "puzzle.completed", puzzle),
                              LogFixture.event("e-2", "2025-10-10T09:10:00Z", "u", "puzzle.completed", puzzle)], to: a)
        try LogFixture.write([LogFixture.event("e-2", "2025-10-10T09:10:00Z", "u", "puzzle.completed", puzzle),
                              LogFixture.event("e-1", "2025-10-11T09:00:00Z", "v", "puzzle.completed", puzzle)], to: b)
        var progressed = Set<String>()
        let (report, warnings) = try Self.warned { warn in
            try LedgerSource(paths: [a, b]).report(progress: { path, _, _ in progressed.insert(path) }, warning: warn)
        }
        #expect(warnings == [.conflictingID(id: "e-1", place: "\(b):2", earlier: "\(a):1")])
        #expect(warnings[0].description == "warning: \(b):2: id \"e-1\" was read at \(a):1 with different content; counted there only")
        #expect(report.json == (try LedgerSource.logs([a]).report()).json)
        #expect(report.totals.puzzlesCompleted == 2)
        #expect(progressed == [a, b])
    }

    @Test("a user's records: in a directory only their learner log, which must exist; a damaged learner log names its line")
    func userAndErrors() throws {
        let (tmp, log, dir) = try DirectoryReportTests.fixture()
        _ = tmp
        let source = try LedgerSource(paths: [dir])
        var users = Set<String>(), count = 0
        try source.forEachRecord(user: "gap") { users.insert($0.user ?? ""); count += 1 }
        let expected = try LedgerDirectoryTests.lines(log).filter { $0.user == "gap" }.count
        #expect(users == ["gap"] && count == expected)
        #expect(throws: LedgerError.self) { try source.forEachRecord(user: "nobody") { _ in } }
        do {
            try source.forEachRecord(user: "nobody") { _ in }
        } catch {
            #expect(error.code == .notFound && error.description.hasPrefix("\(dir): not_found: no learner log for user \"nobody\""))
        }
        let (other, misroutedDir, misrouted) = try DirectoryReportTests.misrouted()
        _ = other
        do {
            _ = try LedgerSource(paths: [misroutedDir]).report()
            Issue.record("a misrouted event was not refused")
        } catch {
            #expect(error.code == .damaged && error.path == misrouted && error.message.contains(": misrouted: "), "\(error)")
        }
    }
}
