import Events
import Foundation
import Testing
@testable import Ledger

/// Opening a log and catching up with other writers' lines: a long stretch
/// (opening a log of several MiB, or a large tail) is checked on both cores
/// by the read pipeline, a short one line by line; the chain is extended in
/// place. Either way the writer must refuse the same damage verify reports,
/// recover the same torn tails, and stay consistent when a read fails midway.
@Suite("Writer: opening and catching up")
struct WriterCatchUpTests {
    /// A log of `events` lines, larger than the pipeline threshold when `events` is 20,000 (~5 MiB).
    static func makeLog(_ path: String, events: Int, prefix: String = "e-") throws {
        let writer = try LedgerWriter(path: path)
        var k = 1
        while k <= events {
            let n = min(2000, events - k + 1)
            try writer.append(try Make.answers(k...(k + n - 1), prefix: prefix), durability: .deferred)
            k += n
        }
        try writer.sync()
    }

    /// Where the big log is made (removed when the test process exits).
    static let bigLogDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("catchup-\(UUID().uuidString.prefix(8))").path

    /// One big log for every test (made once: appending 20,000 events in a debug build takes a moment).
    static let bigLog: (path: String, bytes: [UInt8]) = {
        try? FileManager.default.createDirectory(atPath: bigLogDirectory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: WriterCatchUpTests.bigLogDirectory) }
        let path = bigLogDirectory + "/big.log"
        try? makeLog(path, events: 20_000)
        return (path, (try? Files.bytes(path)) ?? [])
    }()

    /// A copy of the big log in `dir`.
    static func copyOfBigLog(_ dir: TempDir) throws -> String {
        let path = dir.file("a.log")
        try Files.write(path, bigLog.bytes)
        return path
    }

    @Test func openingALargeLogChecksItAllAndKnowsItsIDs() throws {
        let dir = try TempDir("catchup")
        defer { dir.cleanup() }
        let log = try Self.copyOfBigLog(dir)
        #expect(Self.bigLog.bytes.count > LedgerWriter.parallelCheckBytes)
        let writer = try LedgerWriter(path: log)
        let report = try verify(path: log)
        #expect(report.isOK && writer.head == report.head && writer.head.seq == 20_000)
        #expect(try writer.append(try Make.answer("e-12345", question: 12_345)) == AppendResult(id: "e-12345", seq: 12_345, status: .alreadyPresent))
        #expect(try writer.append(try Make.answer("e-20001")).seq == 20_001)
    }

    @Test(arguments: [2, 4_000, 19_999])
    func damageInALargeLogIsRefusedAsVerifySaysIt(line: Int) throws {
        let dir = try TempDir("catchup")
        defer { dir.cleanup() }
        let log = try Self.copyOfBigLog(dir)
        var lines = try Files.lines(log)
        lines[line - 1] = Array(String(decoding: lines[line - 1], as: UTF8.self)
            .replacingOccurrences(of: "\"choice\":1", with: "\"choice\":\"1\"").utf8)
        try Files.write(log, lines.flatMap { $0 + [0x0A] })
        let before = try Files.bytes(log)
        let expected = try #require(try verify(path: log).problem)
        #expect(expected.line == line)
        let error = #expect(throws: LedgerError.self) { try LedgerWriter(path: log) }
        #expect(error?.code == .damaged)
        #expect(error?.problem == expected)
        #expect(error?.description == "\(log): \(expected): the log is damaged; the ledger appends nothing to it (run verify)")
        #expect(try Files.bytes(log) == before)
    }

    @Test func aTornTailAfterALargeLogIsMovedAside() throws {
        let dir = try TempDir("catchup")
        defer { dir.cleanup() }
        let log = try Self.copyOfBigLog(dir)
        let torn = Array(#"{"v":1,"seq":20001,"id":"#.utf8)
        try Files.append(log, torn)
        let writer = try LedgerWriter(path: log)
        #expect(writer.recoveries.map(\.tail) == [TornTail(line: 20_001, offset: Self.bigLog.bytes.count, length: torn.count)])
        #expect(try Files.bytes(try #require(writer.recoveries.first?.sideFile)) == torn)
        #expect(try Files.bytes(log) == Self.bigLog.bytes)
    }

    /// Every `pread` of the open of a large log fails in turn (EIO), or is interrupted (EINTR).
    @Test func everyReadOfALargeOpenFailsInTurn() throws {
        let dir = try TempDir("catchup")
        defer { dir.cleanup() }
        let log = try Self.copyOfBigLog(dir)
        let dry = FaultInjector()
        let head = try LedgerWriter(path: log, create: false, system: System(faults: dry)).head
        let reads = dry.attempts[.pread, default: 0]
        #expect(reads >= 3)  // the log in reads of up to 2 MiB
        for k in 0..<reads {
            let faults = FaultInjector()
            faults.inject(.fail(.ioError), into: .pread, after: k)
            let error = #expect(throws: LedgerError.self) { try LedgerWriter(path: log, create: false, system: System(faults: faults)) }
            #expect(error?.code == .io, "read \(k + 1)")
            #expect(error?.systemCall == SystemCallError(call: "pread", errno: .ioError))
            #expect(error?.description.hasPrefix("\(log): io: reading at byte ") == true, "\(String(describing: error))")
            #expect(try Files.bytes(log) == Self.bigLog.bytes)

            let interrupted = FaultInjector()
            interrupted.inject(.interrupt, into: .pread, after: k)
            #expect(try LedgerWriter(path: log, create: false, system: System(faults: interrupted)).head == head)
            #expect(interrupted.injectedCount(.pread) == 1)
        }
    }

    /// Another writer appends a large tail (read by the pipeline) or a small one (line by line).
    @Test(arguments: [20_000, 3])
    func anotherWritersTailIsReadOnceAndItsIDsKnown(events: Int) throws {
        let dir = try TempDir("catchup")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...2, prefix: "mine-"))
        let other = try LedgerWriter(path: log)
        var k = 1
        while k <= events {
            let n = min(2000, events - k + 1)
            try other.append(try Make.answers(k...(k + n - 1), prefix: "o-"), durability: .deferred)
            k += n
        }
        try other.sync()
        let results = try writer.append([try Make.answer("o-\(events)", question: events), try Make.answer("mine-3")])
        #expect(results.map(\.status) == [.alreadyPresent, .appended])
        #expect(results.map(\.seq) == [2 + events, 3 + events])
        #expect(writer.head == (try verify(path: log)).head)
    }

    /// A read that fails after part of another writer's tail was checked leaves the
    /// writer consistent: the next append goes on from where the read stopped.
    @Test func aReadFailingMidwayThroughATailIsRetriedFromWhereItStopped() throws {
        let dir = try TempDir("catchup")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let faults = FaultInjector()
        let writer = try LedgerWriter(path: log, create: true, system: System(faults: faults))
        try writer.append(try Make.answers(1...1, prefix: "mine-"))
        let other = try LedgerWriter(path: log)
        try other.append(try Make.answers(1...10_000, prefix: "o-"), durability: .deferred)  // ~2.7 MiB: two reads
        faults.inject(.fail(.ioError), into: .pread, after: 1)
        let error = #expect(throws: LedgerError.self) { try writer.append(try Make.answer("mine-2")) }
        #expect(error?.systemCall?.call == "pread")
        #expect(writer.isUsable)
        #expect(try verify(path: log).events == 10_001)
        // The lines of the first read are kept; the rest are read now.
        let readsBefore = faults.attempts[.pread, default: 0]
        #expect(try writer.append(try Make.answer("mine-2")).seq == 10_002)
        #expect(faults.attempts[.pread, default: 0] - readsBefore == 1)
        #expect(try writer.append(try Make.answer("o-9999", question: 9999)).status == .alreadyPresent)
        #expect(try writer.append(try Make.answer("o-2", question: 2)).seq == 3)
        let report = try verify(path: log)
        #expect(report.isOK && report.events == 10_002 && report.head == writer.head)
    }
}
