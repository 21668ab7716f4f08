import Events
import Testing
@testable import Ledger

/// Batches prepared apart and joined (the store's group commit) are appended
/// as `append([NewEvent])` appends one batch: the same results, the same rules.
@Suite("Writer: prepared and joined batches")
struct PreparedEventsTests {
    @Test("two prepared batches joined are one write: the same lines as appending their events at once")
    func joinedIsOneBatch() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let a = dir.file("a"), b = dir.file("b")
        let first = try Make.answers(0..<3), second = try Make.answers(3..<5)
        var joined = try PreparedEvents(first, path: a)
        joined.append(contentsOf: try PreparedEvents(second, path: a))
        let writer = try LedgerWriter(path: a)
        let results = try writer.append(joined)
        let plain = try LedgerWriter(path: b).append(first + second)
        #expect(results == plain)
        #expect(try Files.bytes(a) == Files.bytes(b))
    }

    @Test("an id in two joined batches: the same event is written once, other content refuses the whole batch at the later one")
    func repeatsAcrossJoinedBatches() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("log")
        let writer = try LedgerWriter(path: log)
        var same = try PreparedEvents(Make.answers(0..<2), path: log)
        same.append(contentsOf: try PreparedEvents([Make.answer("e-1", question: 1)], path: log))
        let results = try writer.append(same)
        #expect(results.map(\.status) == [.appended, .appended, .alreadyPresent])
        #expect(results[2].seq == results[1].seq)

        var conflicting = try PreparedEvents([Make.answer("x-0", question: 0)], path: log)
        conflicting.append(contentsOf: try PreparedEvents([Make.answer("x-1"), Make.answer("x-0", question: 9)], path: log))
        do {
            try writer.append(conflicting)
            Issue.record("a conflicting duplicate was written")
        } catch {
            #expect(error.code == .conflictingDuplicate && error.eventIndex == 2)
        }
        #expect(try verify(path: log).events == 2)
    }

    @Test("preparing checks as append does: the same error, at the same index, before any I/O")
    func preparingRefusesAsAppend() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("log")
        var events = try Make.answers(0..<3)
        events[2].user = ""
        let prepared = Result { () throws(LedgerError) in try PreparedEvents(events, path: log) }
        let appended = Result { () throws(LedgerError) in try LedgerWriter(path: log).append(events) }
        guard case .failure(let p) = prepared, case .failure(let a) = appended else {
            Issue.record("an empty user was accepted")
            return
        }
        #expect(p.code == .invalidEvent && p.eventIndex == 2)
        #expect(p.code == a.code && p.eventIndex == a.eventIndex && p.message == a.message)
    }

    @Test("cutting a joined batch: the events taken out are not written, the others keep their order")
    func cutting() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("log")
        var batch = try PreparedEvents(Make.answers(0..<2), path: log)
        batch.append(contentsOf: try PreparedEvents(Make.answers(2..<4), path: log))
        batch.append(contentsOf: try PreparedEvents(Make.answers(4..<6), path: log))
        batch.removeSubrange(2..<4)
        let first = batch.removeFirst(1)
        #expect(first.count == 1 && batch.count == 3)
        let writer = try LedgerWriter(path: log)
        let ids = try (writer.append(first) + writer.append(batch)).map(\.id)
        #expect(ids == ["e-0", "e-1", "e-4", "e-5"])
        var inLog: [String] = []
        try LogReader(path: log).read { inLog.append($0.id) }
        #expect(inLog == ids)
    }
}
