import Events
import Foundation
import Testing
@testable import Ledger

@Suite("Writer")
struct WriterTests {
    @Test func appendThenReadRoundTrip() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let events = try Make.answers(1...3) + [try Make.answer(nil)]
        let writer = try LedgerWriter(path: log)
        let results = try writer.append(events)
        #expect(results.map(\.seq) == [1, 2, 3, 4])
        #expect(results.allSatisfy { $0.status == .appended })
        #expect(results[0..<3].map(\.id) == ["e-1", "e-2", "e-3"])
        // The missing id became a lowercase UUID that follows the id rule.
        let made = results[3].id
        #expect(made.count == 36 && made == made.lowercased())
        #expect(made.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || $0 == UInt8(ascii: "-") })
        #expect(writer.head.seq == 4)
        writer.close()

        var seen: [Envelope] = []
        let summary = try LogReader(path: log).read { record in
            if case .event(let e) = record { seen.append(e) }
        }.summary
        #expect(summary.events == 4)
        #expect(seen.map(\.id) == ["e-1", "e-2", "e-3", made])
        #expect(seen.map(\.seq) == [1, 2, 3, 4])
        #expect(seen[0].prev == Envelope.genesis)
        #expect(seen.map(\.event) == events.map(\.event))
        #expect(seen.map(\.user) == ["u-1", "u-1", "u-1", "u-1"])
        // The lines are exactly the codec's encoding, and the head is the SHA of the last.
        let lines = try Files.lines(log)
        for (line, envelope) in zip(lines, seen) { #expect(line == LineCodec.encode(envelope)) }
        #expect(summary.head == Head(seq: 4, sha256: SHA256.hash(lines[3])))
        #expect(summary.head == writer.head)
    }

    @Test func newFileIsMode0600() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("new.log")
        let writer = try LedgerWriter(path: log)
        #expect(try Files.permissions(log) == 0o600)
        #expect(writer.head == Head.empty)
        #expect(try Files.bytes(log).isEmpty)
    }

    @Test func existingIDAppendsNothingAndReportsItsSeq() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...3))
        let before = try Files.bytes(log)
        let again = try writer.append([try Make.answer("e-2", question: 2)])
        #expect(again == [AppendResult(id: "e-2", seq: 2, status: .alreadyPresent)])
        #expect(try Files.bytes(log) == before)
        // Mixed batch: the known id is skipped, the new one gets the next seq.
        let mixed = try writer.append([try Make.answer("e-3", question: 3), try Make.answer("e-4")])
        #expect(mixed.map { [$0.id, "\($0.seq)", "\($0.status)"] } == [["e-3", "3", "alreadyPresent"], ["e-4", "4", "appended"]])
        // The appended one carries the line as written, for a live projection; the known one does not.
        #expect(mixed[0].envelope == nil)
        #expect(mixed[1].envelope?.seq == 4 && mixed[1].envelope?.id == "e-4")
        #expect(mixed[1].envelope.map { LineCodec.encode($0) } == (try Files.bytes(log)).split(separator: 0x0A).last.map(Array.init))
        // A second writer (a fresh open) knows the ids too.
        let other = try LedgerWriter(path: log)
        #expect(try other.append(try Make.answer("e-1")) == AppendResult(id: "e-1", seq: 1, status: .alreadyPresent))
        #expect(try LogReader(path: log).verify().events == 4)
    }

    @Test func repeatedIDWithinABatchWithOtherContentIsRefusedWithNothingWritten() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...2))
        let before = try Files.bytes(log)
        let error = #expect(throws: LedgerError.self) {
            try writer.append([try Make.answer("x-1"), try Make.answer("x-2"), try Make.answer("x-1", question: 2)])
        }
        #expect(error?.code == .conflictingDuplicate)
        #expect(error?.description.contains("event 3 of 3") == true)
        #expect(error?.eventIndex == 2)
        #expect(error?.description.contains("already used by event 1 of this batch") == true)
        #expect(error?.description.contains(log) == true)
        #expect(try Files.bytes(log) == before)
        #expect(writer.isUsable)
    }

    @Test func repeatedIDWithinABatchWithTheSameContentIsWrittenOnce() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...2))
        let results = try writer.append([try Make.answer("x-1"), try Make.answer("x-2"), try Make.answer("x-1")])
        #expect(results.map(\.seq) == [3, 4, 3])
        #expect(results.map(\.status) == [.appended, .appended, .alreadyPresent])
        #expect(try verify(path: log).events == 4)
    }

    @Test func invalidEventRefusesTheWholeBatch() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...2))
        let before = try Files.bytes(log)
        // NewEvent values can be built directly, bypassing the decoder: the writer re-validates.
        var bad = try Make.answer("bad-1")
        bad.user = ""
        var badID = try Make.answer("ok")
        badID.id = "has space"
        for batch in [[try Make.answer("n-1"), bad], [badID, try Make.answer("n-2")]] {
            let error = #expect(throws: LedgerError.self) { try writer.append(batch) }
            #expect(error?.code == .invalidEvent)
            if case .event(let e)? = error?.cause { #expect(e.kind == .invalidEnvelope) } else { Issue.record("no event cause") }
            #expect(try Files.bytes(log) == before)
        }
        let error = #expect(throws: LedgerError.self) { try writer.append([try Make.answer("n-1"), bad]) }
        #expect(error?.message.contains("event 2 of 2") == true)
        #expect(error?.eventIndex == 1)
        #expect(error?.message.contains("user") == true)
        #expect(try writer.append([try Make.answer("n-1")]).first?.seq == 3)
    }

    @Test func tornTailIsMovedToASideFileOnOpen() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        try LedgerWriter(path: log).append(try Make.answers(1...3))
        let intact = try Files.bytes(log)
        let torn = Array(#"{"v":1,"seq":4,"id":"e-4","at":"2025"#.utf8)
        try Files.append(log, torn)

        let writer = try LedgerWriter(path: log)
        #expect(writer.recoveries.count == 1)
        let recovery = try #require(writer.recoveries.first)
        #expect(recovery.tail == TornTail(line: 4, offset: intact.count, length: torn.count))
        #expect(recovery.sideFile.hasPrefix(log + ".torn-4-"))
        #expect(try Files.bytes(recovery.sideFile) == torn)
        #expect(try Files.permissions(recovery.sideFile) == 0o600)
        #expect(try Files.bytes(log) == intact)
        #expect(recovery.description.contains("moved \(torn.count) bytes"))
        #expect(try writer.append(try Make.answer("e-4")).seq == 4)
        #expect(try LogReader(path: log).verify().isOK)
    }

    @Test func aSecondRecoveryNeverOverwritesASideFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        try LedgerWriter(path: log).append(try Make.answers(1...1))
        try Files.append(log, Array("first".utf8))
        let one = try LedgerWriter(path: log).recoveries
        try Files.append(log, Array("second".utf8))
        let two = try LedgerWriter(path: log).recoveries
        #expect(one.count == 1 && two.count == 1)
        #expect(one[0].sideFile != two[0].sideFile)
        #expect(try Files.text(one[0].sideFile) == "first")
        #expect(try Files.text(two[0].sideFile) == "second")
    }

    @Test func aTornTailLeftByAnotherWriterIsRecoveredAtTheNextAppend() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...2))
        let other = try LedgerWriter(path: log)
        try other.append(try Make.answers(3...3))
        try Files.append(log, Array("{\"v\":1,".utf8))  // another writer died mid-write
        let results = try writer.append(try Make.answers(4...4))
        #expect(results.first?.seq == 4)
        #expect(writer.recoveries.count == 1)
        #expect(writer.head.seq == 4)
        let report = try LogReader(path: log).verify()
        #expect(report.isOK && report.events == 4 && report.summary.tornTail == nil)
    }

    @Test func refusesDamagedLog() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        try LedgerWriter(path: log).append(try Make.answers(1...3))
        var lines = try Files.lines(log)
        lines[1] = Array(String(decoding: lines[1], as: UTF8.self).replacingOccurrences(of: "\"choice\":1", with: "\"choice\":2").utf8)
        try Files.write(log, lines.flatMap { $0 + [0x0A] })
        let before = try Files.bytes(log)
        let error = #expect(throws: LedgerError.self) { try LedgerWriter(path: log) }
        #expect(error?.code == .damaged)
        #expect(error?.problem?.line == 3)
        #expect(error?.problem?.kind == .brokenChain)
        #expect(error?.description.hasPrefix("\(log): line 3: broken_chain: ") == true)
        #expect(try Files.bytes(log) == before)
    }

    @Test func refusesDamageAddedByAnotherProcessAndStaysRefusing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...2))
        try Files.append(log, Array("not json\n".utf8))
        for _ in 0..<2 {
            let error = #expect(throws: LedgerError.self) { try writer.append(try Make.answers(3...3)) }
            #expect(error?.problem?.description.hasPrefix("line 3: not_json: ") == true)
        }
        #expect(!writer.isUsable)
    }

    @Test func refusesSymlinkDirectoryMissingDirectoryAndReadOnlyFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let real = dir.file("real.log")
        try LedgerWriter(path: real).append(try Make.answers(1...1))
        let link = dir.file("link.log")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let dangling = dir.file("dangling.log")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.file("nowhere.log"))
        let readOnly = dir.file("ro.log")
        try LedgerWriter(path: readOnly).append(try Make.answers(1...1))
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: readOnly)

        let cases: [(String, LedgerError.Code, String)] = [
            (link, .symlink, "symbolic link"),
            (dangling, .symlink, "symbolic link"),
            (dir.path, .isDirectory, "directory"),
            (dir.file("missing/a.log"), .notFound, "does not exist"),
            (readOnly, .permission, "read-only"),
        ]
        for (path, code, words) in cases {
            let error = #expect(throws: LedgerError.self) { try LedgerWriter(path: path) }
            #expect(error?.code == code, "\(path)")
            #expect(error?.description.hasPrefix(path + ": ") == true)
            #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        }
        #expect(FileManager.default.fileExists(atPath: dir.file("nowhere.log")) == false)
        let missing = #expect(throws: LedgerError.self) { try LedgerWriter(path: dir.file("absent.log"), create: false) }
        #expect(missing?.code == .notFound)
    }

    @Test func deferredDurabilityThenSync() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let faults = FaultInjector()
        let writer = try LedgerWriter(path: log, create: true, system: System(faults: faults))
        let fsyncsAtOpen = faults.attempts[.fsync, default: 0]
        for k in 0..<5 { try writer.append(try Make.answers((k * 10 + 1)...(k * 10 + 10)), durability: .deferred) }
        #expect(faults.attempts[.fsync, default: 0] == fsyncsAtOpen)
        try writer.sync()
        #expect(faults.attempts[.fsync, default: 0] == fsyncsAtOpen + 1)
        try writer.append(try Make.answers(100...101))
        #expect(faults.attempts[.fsync, default: 0] == fsyncsAtOpen + 2)
        #expect(try LogReader(path: log).verify().events == 52)
    }

    /// Each append reads only what other writers added since, never the whole log again.
    @Test func appendReadsOnlyNewLines() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let seed = try LedgerWriter(path: log)
        for k in 0..<20 { try seed.append(try Make.answers((k * 500 + 1)...(k * 500 + 500)), durability: .deferred) }
        try seed.sync()
        let size = try Files.bytes(log).count
        #expect(size > LineCodec.maxLineLength + 1 + LineScanner.defaultChunkSize)  // more than one read buffer

        let faults = FaultInjector()
        let writer = try LedgerWriter(path: log, create: false, system: System(faults: faults))
        let atOpen = faults.attempts[.pread, default: 0]
        #expect(atOpen >= 2)  // the whole log, in chunks
        try writer.append(try Make.answers(20_001...20_001))
        #expect(faults.attempts[.pread, default: 0] == atOpen)  // nothing new: no read at all
        try seed.append(try Make.answers(20_002...20_003))  // another writer
        let results = try writer.append(try Make.answers(20_004...20_004))
        #expect(results.first?.seq == 10_004)
        #expect(faults.attempts[.pread, default: 0] == atOpen + 1)  // one read of the two new lines
        #expect(try writer.append(try Make.answer("e-20002", question: 20_002)).status == .alreadyPresent)  // and it knows their ids
        #expect(try verify(path: log).events == 10_004)
    }
}
