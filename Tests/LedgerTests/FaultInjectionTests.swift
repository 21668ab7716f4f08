import Events
import Foundation
import Testing
@testable import Ledger

/// Each fault leaves a log that holds only whole acknowledged batches and
/// verifies, and an error that names the file and the call.
@Suite("Fault injection")
struct FaultInjectionTests {
    /// A log with two acknowledged batches (e-1...e-3, e-4...e-6), and a writer on it with a fault seam.
    struct Fixture {
        let dir: TempDir
        let log: String
        let faults = FaultInjector()
        let writer: LedgerWriter
        let acknowledged: [UInt8]

        init() throws {
            dir = try TempDir("faults")
            log = dir.file("a.log")
            writer = try LedgerWriter(path: log, create: true, system: System(faults: faults))
            try writer.append(try Make.answers(1...3))
            try writer.append(try Make.answers(4...6))
            acknowledged = try Files.bytes(log)
        }

        /// The log verifies, and holds exactly the acknowledged batches (or those plus `plus` whole events).
        func expectIntact(events: Int = 6) throws {
            let report = try verify(path: log)
            #expect(report.isOK, "\(String(describing: report.problem))")
            #expect(report.warnings.isEmpty)
            #expect(report.events == events)
            let bytes = try Files.bytes(log)
            #expect(Array(bytes.prefix(acknowledged.count)) == acknowledged)
            #expect(try pythonCheck(log).status == 0)
        }
    }

    @Test(arguments: [Errno.ioError, Errno.noSpace])
    func failedWriteIsUndone(errno: Errno) throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        f.faults.inject(.fail(errno), into: .write)
        let error = #expect(throws: LedgerError.self) { try f.writer.append(try Make.answers(7...9)) }
        #expect(error?.code == .io)
        #expect(error?.systemCall == SystemCallError(call: "write", errno: errno))
        #expect(error?.description.hasPrefix(f.log + ": io: appending a batch of 3 events failed after 0 of") == true)
        #expect(error?.description.contains("write: ") == true)
        #expect(error?.description.contains("(\(errno.name))") == true)
        #expect(try Files.bytes(f.log) == f.acknowledged)
        try f.expectIntact()
        // The writer is still usable: the space may come back.
        #expect(f.writer.isUsable)
        #expect(try f.writer.append(try Make.answers(7...9)).map(\.seq) == [7, 8, 9])
        try f.expectIntact(events: 9)
    }

    @Test func noSpaceAfterAPartialWriteIsTruncatedBack() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        f.faults.inject(.shortWrite(100), into: .write)
        f.faults.inject(.fail(.noSpace), into: .write, after: 1)
        let error = #expect(throws: LedgerError.self) { try f.writer.append(try Make.answers(7...9)) }
        #expect(error?.message.contains("failed after 100 of") == true)
        #expect(error?.message.contains("write: No space left on device (ENOSPC)") == true)
        #expect(error?.message.contains("truncated back to \(f.acknowledged.count) bytes") == true)
        #expect(f.faults.injectedCount(.write) == 2)
        #expect(try Files.bytes(f.log) == f.acknowledged)
        try f.expectIntact()
    }

    @Test func shortWritesAreLooped() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        f.faults.inject(.shortWrite(7), into: .write, times: 10_000)
        let results = try f.writer.append(try Make.answers(7...9))
        #expect(results.map(\.seq) == [7, 8, 9])
        #expect(f.faults.injectedCount(.write) > 50)
        try f.expectIntact(events: 9)
    }

    @Test func eintrIsRetried() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        for call in [SystemCall.write, .fsync, .flock, .fstat, .lstat] {
            f.faults.inject(.interrupt, into: call, times: 3)
        }
        #expect(try f.writer.append(try Make.answers(7...9)).map(\.seq) == [7, 8, 9])
        #expect(f.faults.injectedCount(.write) == 3 && f.faults.injectedCount(.fsync) == 3 && f.faults.injectedCount(.flock) == 3)
        // Reads too (a fresh writer reads the whole log with pread).
        let faults = FaultInjector()
        faults.inject(.interrupt, into: .pread, times: 3)
        faults.inject(.interrupt, into: .open, times: 2)
        let second = try LedgerWriter(path: f.log, create: false, system: System(faults: faults))
        #expect(faults.injectedCount(.pread) == 3 && faults.injectedCount(.open) == 2)
        #expect(second.head == f.writer.head)
        try f.expectIntact(events: 9)
    }

    @Test func failedFsyncMakesTheWriterUnusableAndTheBatchNotDurable() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        f.faults.inject(.fail(.ioError), into: .fsync)
        let error = #expect(throws: LedgerError.self) { try f.writer.append(try Make.answers(7...9)) }
        #expect(error?.code == .notDurable)
        #expect(error?.systemCall?.call == "fsync")
        #expect(error?.description.hasPrefix(f.log + ": not_durable: the batch of 3 events (seq 7...9) was written but fsync failed") == true)
        #expect(error?.description.contains("fsync: Input/output error (EIO)") == true)
        #expect(!f.writer.isUsable)
        // No retry on the same descriptor: the next append is refused without touching the file.
        let fsyncs = f.faults.attempts[.fsync, default: 0]
        let writes = f.faults.attempts[.write, default: 0]
        let refused = #expect(throws: LedgerError.self) { try f.writer.append(try Make.answers(10...10)) }
        #expect(refused?.code == .unusable)
        #expect(refused?.message.contains("reopen") == true)
        #expect(#expect(throws: LedgerError.self) { try f.writer.sync() }?.code == .unusable)
        #expect(f.faults.attempts[.fsync, default: 0] == fsyncs && f.faults.attempts[.write, default: 0] == writes)
        // The batch's lines are whole (they may or may not be on disk): reopening and
        // appending it again is safe, its ids find the lines.
        try f.expectIntact(events: 9)
        let reopened = try LedgerWriter(path: f.log)
        #expect(try reopened.append(try Make.answers(7...10)).map(\.status) == [.alreadyPresent, .alreadyPresent, .alreadyPresent, .appended])
        try f.expectIntact(events: 10)
    }

    @Test func failedSyncAfterDeferredAppends() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        try f.writer.append(try Make.answers(7...8), durability: .deferred)
        f.faults.inject(.fail(.ioError), into: .fsync)
        let error = #expect(throws: LedgerError.self) { try f.writer.sync() }
        #expect(error?.code == .notDurable)
        #expect(error?.description.contains("fsync: ") == true)
        #expect(!f.writer.isUsable)
        try f.expectIntact(events: 8)
    }

    @Test func failedTruncateAfterAFailedWriteNeedsRecovery() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        f.faults.inject(.shortWrite(50), into: .write)
        f.faults.inject(.fail(.ioError), into: .write, after: 1)
        f.faults.inject(.fail(.ioError), into: .ftruncate)
        let error = #expect(throws: LedgerError.self) { try f.writer.append(try Make.answers(7...9)) }
        #expect(error?.code == .needsRecovery)
        #expect(error?.message.contains("write: Input/output error (EIO)") == true)
        #expect(error?.message.contains("ftruncate: Input/output error (EIO)") == true)
        #expect(error?.message.contains("reopen") == true)
        #expect(!f.writer.isUsable)
        // The partial batch is a torn tail now: readers ignore it, the next writer moves it aside.
        #expect(try verify(path: f.log).warnings.first?.kind == .tornTail)
        let reopened = try LedgerWriter(path: f.log)
        let side = try #require(reopened.recoveries.first?.sideFile)
        #expect(try Files.bytes(side).count == 50)
        #expect(try Files.bytes(f.log) == f.acknowledged)
        try f.expectIntact()
    }

    @Test func failedTruncateDuringRecoveryLeavesTheLogAsItWas() throws {
        let dir = try TempDir("faults")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        try LedgerWriter(path: log).append(try Make.answers(1...3))
        let acknowledged = try Files.bytes(log)
        let torn = Array(#"{"v":1,"seq":4,"id":"#.utf8)
        try Files.append(log, torn)

        let faults = FaultInjector()
        faults.inject(.fail(.ioError), into: .ftruncate)
        let error = #expect(throws: LedgerError.self) { try LedgerWriter(path: log, create: false, system: System(faults: faults)) }
        #expect(error?.code == .io)
        #expect(error?.systemCall?.call == "ftruncate")
        #expect(error?.description.hasPrefix(log + ": io: truncating the log to its last complete line (\(acknowledged.count) bytes) failed") == true)
        // Nothing lost: the log still ends in its tail (a warning), and a copy is in a side file.
        #expect(try Files.bytes(log) == acknowledged + torn)
        let report = try verify(path: log)
        #expect(report.isOK && report.events == 3 && report.warnings.count == 1)
        let sides = try dir.files().filter { $0.hasPrefix("a.log.torn-4-") }
        #expect(sides.count == 1)
        #expect(try Files.bytes(dir.file(sides[0])) == torn)

        // The next open recovers (into a new side file; the first is never overwritten).
        let writer = try LedgerWriter(path: log)
        #expect(writer.recoveries.count == 1)
        #expect(try Files.bytes(log) == acknowledged)
        #expect(try dir.files().filter { $0.hasPrefix("a.log.torn-4-") }.count == 2)
        #expect(try writer.append(try Make.answers(4...4)).first?.seq == 4)
    }

    @Test func failedFsyncOfTheSideFileLeavesTheLogAsItWas() throws {
        let dir = try TempDir("faults")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        try LedgerWriter(path: log).append(try Make.answers(1...2))
        try Files.append(log, Array("torn".utf8))
        let before = try Files.bytes(log)
        let faults = FaultInjector()
        faults.inject(.fail(.ioError), into: .fsync)
        let error = #expect(throws: LedgerError.self) { try LedgerWriter(path: log, create: false, system: System(faults: faults)) }
        #expect(error?.systemCall?.call == "fsync")
        #expect(error?.path.hasPrefix(log + ".torn-3-") == true)
        #expect(error?.message.contains("the log still holds its torn tail") == true)
        #expect(try Files.bytes(log) == before)
    }

    @Test func failedOpenAndLockNameTheCall() throws {
        let dir = try TempDir("faults")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let faults = FaultInjector()
        faults.inject(.fail(.ioError), into: .open)
        let open = #expect(throws: LedgerError.self) { try LedgerWriter(path: log, create: true, system: System(faults: faults)) }
        #expect(open?.code == .io && open?.systemCall?.call == "open")
        #expect(open?.description == "\(log): io: opening the log failed: open: Input/output error (EIO)")

        let writer = try LedgerWriter(path: log, create: true, system: System(faults: faults))
        faults.inject(.fail(Errno(rawValue: 37)), into: .flock)  // ENOLCK on Linux
        let lock = #expect(throws: LedgerError.self) { try writer.append(try Make.answers(1...1)) }
        #expect(lock?.systemCall?.call == "flock")
        #expect(lock?.message.hasPrefix("taking the writer lock (flock) failed") == true)
        #expect(try Files.bytes(log).isEmpty)
        #expect(try writer.append(try Make.answers(1...1)).first?.seq == 1)
    }

    @Test func readErrorWhileVerifyingIsAnErrorNotAReport() throws {
        let dir = try TempDir("faults")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        try LedgerWriter(path: log).append(try Make.answers(1...2))
        let faults = FaultInjector()
        faults.inject(.fail(.ioError), into: .pread)
        let error = #expect(throws: LedgerError.self) { try LogReader(path: log, system: System(faults: faults)).verify() }
        #expect(error?.code == .io)
        #expect(error?.description == "\(log): io: reading at byte 0 failed: pread: Input/output error (EIO)")
    }
}
