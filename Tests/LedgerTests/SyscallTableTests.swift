import Events
import Foundation
import Testing
@testable import Ledger

/// Makes every system call of an operation fail in turn.
///
/// For each scenario (create, open, open with a torn tail, append, append
/// after another writer, append that recovers another writer's torn tail,
/// deferred append + sync, verify), a dry run counts the calls the operation
/// makes, by name. Then, for every one of those calls (the k-th `write`, the
/// k-th `fsync`, ...), the operation runs again on fresh files with that one
/// call failing (EIO, ENOSPC), interrupted (EINTR) or, for `write`, writing
/// one byte only. After each run:
///
/// - an interrupted or short call changes nothing: the operation succeeds
///   with the dry run's result and bytes;
/// - a failing call makes the operation throw a `LedgerError` that names the
///   file (the log, its directory or its side file) and the call with its
///   errno, unless the call is one whose failure loses nothing (releasing the
///   lock, closing a descriptor);
/// - the log still starts with every acknowledged byte, verifies, and holds
///   only whole batches (a torn tail only where the scenario put one);
/// - a torn tail is never lost: it is still at the end of the log, or some
///   side file holds exactly it (and any side file holds a prefix of it);
/// - the writer either still works (the same writer, faults gone, redoes the
///   operation) or refuses every append without touching the file (after a
///   failed fsync), and a fresh writer then redoes it; either way the final
///   log is byte-identical to the dry run's.
@Suite("Every system call fails in turn")
struct SyscallTableTests {
    enum Scenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Create a new log, then append B.
        case create
        /// Open a log holding A, then append B.
        case openExisting
        /// Open a log holding A plus a torn tail (recovered at open), then append B.
        case openRecoveringTail
        /// A writer open on A appends B.
        case append
        /// A writer open on A appends B after another writer appended C (read with pread at the append).
        case appendAfterOther
        /// A writer open on A appends B after another writer died leaving a torn tail.
        case appendRecoveringTail
        /// A writer open on A appends B with deferred durability, then syncs.
        case deferredThenSync
        /// Verify a log holding A plus C plus a torn tail.
        case verify

        var testDescription: String { rawValue }

        var opensInTheOperation: Bool { self == .create || self == .openExisting || self == .openRecoveringTail }
        var hasTornTail: Bool { self == .openRecoveringTail || self == .appendRecoveringTail || self == .verify }
    }

    static let tail = Array(#"{"v":1,"seq":7,"id":"torn-1","at":"2025-10-21T"#.utf8)

    /// The files and writer of one run.
    final class Run {
        let scenario: Scenario
        let dir: TempDir
        let log: String
        let faults = FaultInjector()
        var writer: LedgerWriter?
        /// The log's bytes just before the operation (the acknowledged ones, and C or a tail when the scenario has them).
        var before: [UInt8] = []
        /// Bytes of acknowledged batches (which must never change).
        var acknowledged: [UInt8] = []
        /// Events in the log before the operation (whole lines).
        var eventsBefore = 0
        /// Attempts of each call before the operation started.
        var base: [SystemCall: Int] = [:]

        init(_ scenario: Scenario) throws {
            self.scenario = scenario
            dir = try TempDir("syscalls")
            log = dir.file("a.log")
            if scenario != .create {
                let w = try LedgerWriter(path: log)
                try w.append(try Make.answers(1...3))
                try w.append(try Make.answers(4...6))
                w.close()
                eventsBefore = 6
            }
            if scenario == .openRecoveringTail { try Files.append(log, SyscallTableTests.tail) }
            if !scenario.opensInTheOperation && scenario != .verify {
                writer = try LedgerWriter(path: log, create: false, system: System(faults: faults))
            }
            switch scenario {
            case .appendAfterOther, .verify:
                try LedgerWriter(path: log).append(try Make.answers(1...2, prefix: "o-"))
                eventsBefore += 2
                if scenario == .verify { try Files.append(log, SyscallTableTests.tail) }
            case .appendRecoveringTail:
                try Files.append(log, SyscallTableTests.tail)
            default: break
            }
            before = scenario == .create ? [] : try Files.bytes(log)
            acknowledged = before.count >= SyscallTableTests.tail.count && before.suffix(SyscallTableTests.tail.count).elementsEqual(SyscallTableTests.tail)
                ? Array(before.dropLast(SyscallTableTests.tail.count)) : before
            base = faults.attempts
        }

        /// The operation, with the seam armed; returns what it reports.
        func operate() throws(LedgerError) -> String {
            switch scenario {
            case .create, .openExisting, .openRecoveringTail:
                let w = try LedgerWriter(path: log, create: scenario == .create, system: System(faults: faults))
                writer = w
                return "\(try w.append(try! Make.answers(7...9)).map(\.seq)) recovered \(w.recoveries.count)"
            case .append, .appendAfterOther, .appendRecoveringTail:
                return "\(try writer!.append(try! Make.answers(7...9)).map(\.seq))"
            case .deferredThenSync:
                let r = try writer!.append(try! Make.answers(7...9), durability: .deferred)
                try writer!.sync()
                return "\(r.map(\.seq))"
            case .verify:
                let report = try LogReader(path: log, system: System(faults: faults)).verify()
                return "\(report.problem?.description ?? "ok") \(report.events) \(report.head) \(report.warnings)"
            }
        }

        /// How many times each call was made by the operation.
        var callsDuringOperation: [SystemCall: Int] {
            var out: [SystemCall: Int] = [:]
            for (call, n) in faults.attempts { out[call] = n - base[call, default: 0] }
            return out
        }

        func sideFiles() throws -> [[UInt8]] {
            try dir.files().filter { $0.hasPrefix("a.log.torn-") }.map { try Files.bytes(dir.file($0)) }
        }
    }

    /// The faults tried on each call.
    static func faults(for call: SystemCall) -> [FaultInjector.Fault] {
        var out: [FaultInjector.Fault] = [.fail(.ioError), .fail(.noSpace), .interrupt]
        if call == .write { out.append(.shortWrite(1)) }
        return out
    }

    /// Whether a failure of this call may be swallowed without losing anything:
    /// closing a descriptor, or releasing the lock (`flock` calls alternate lock,
    /// unlock on one writer, so the even-numbered ones are unlocks).
    static func harmless(_ call: SystemCall, attempt: Int) -> Bool {
        call == .close || (call == .flock && attempt % 2 == 0)
    }

    @Test(arguments: Scenario.allCases)
    func everyCallFailsInTurn(_ scenario: Scenario) throws {
        // The dry run: what the operation reports, makes and calls.
        let dry = try Run(scenario)
        defer { dry.dir.cleanup() }
        let expected = try dry.operate()
        let expectedBytes = try Files.bytes(dry.log)
        let calls = dry.callsDuringOperation
        #expect(calls[.write, default: 0] > 0 || scenario == .verify)
        #expect(calls[.pread, default: 0] > 0 || [.create, .append, .deferredThenSync].contains(scenario))
        if scenario.hasTornTail && scenario != .verify {
            #expect(try dry.sideFiles() == [SyscallTableTests.tail])
        }

        var tried = 0, swallowed: [String] = []
        for call in SystemCall.allCases {
            for k in 0..<calls[call, default: 0] {
                for fault in SyscallTableTests.faults(for: call) {
                    let label = "\(scenario) \(call)#\(k + 1) \(fault)"
                    let run = try Run(scenario)
                    defer { run.dir.cleanup() }
                    run.faults.inject(fault, into: call, after: k)
                    let attempt = run.base[call, default: 0] + k + 1
                    let outcome = Result { () throws(LedgerError) in try run.operate() }
                    #expect(run.faults.injectedCount(call) == 1, "\(label): the fault was not reached")
                    tried += 1

                    switch (fault, outcome) {
                    case (.fail(let errno), .failure(let error)):
                        try checkError(error, run: run, call: call, errno: errno, label: label)
                    case (.fail, .success(let got)):
                        #expect(SyscallTableTests.harmless(call, attempt: attempt), "\(label): the failure was swallowed")
                        #expect(got == expected, "\(label)")
                        swallowed.append("\(call)#\(attempt)")
                    case (_, .success(let got)):
                        #expect(got == expected, "\(label)")
                        #expect(try Files.bytes(run.log) == expectedBytes, "\(label)")
                    case (_, .failure(let error)):
                        Issue.record("\(label): an interrupted or short call made the operation fail: \(error)")
                    }
                    try checkLog(run: run, label: label)
                    try redo(run: run, expected: expected, expectedBytes: expectedBytes, label: label)
                }
            }
        }
        print("syscall table \(scenario): \(tried) faulted runs over \(calls.values.reduce(0, +)) calls "
              + "(\(calls.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); "
              + "failures swallowed by design: \(Set(swallowed).sorted())")
    }

    /// The error names the file and the call, with its errno.
    func checkError(_ error: LedgerError, run: Run, call: SystemCall, errno: Errno, label: String) throws {
        let dirPath = LedgerWriter.directory(of: run.log)
        let namesFile = error.path == run.log || error.path == dirPath || error.path.hasPrefix(run.log + ".torn-")
        #expect(namesFile, "\(label): \(error)")
        #expect(error.description.hasPrefix(error.path + ": "), "\(label)")
        #expect(error.description.contains("\(call.rawValue): "), "\(label): \(error)")
        #expect(error.description.contains("(\(errno.name))"), "\(label): \(error)")
        #expect(error.systemCall == SystemCallError(call, errno), "\(label): \(error)")
        // A failed append write is undone, and the writer can go on.
        if call == .write, error.path == run.log, let w = run.writer {
            #expect(error.code == .io, "\(label): \(error)")
            #expect(try Files.bytes(run.log) == run.acknowledged, "\(label): the failed write was not undone")
            #expect(w.isUsable, "\(label)")
        }
        // Only a missing path is reported as a replaced log; any other failure says what it is.
        if error.code == .replaced { #expect(errno == .noEntry, "\(label): \(error)") }
        // Only a failed fsync (or undo) of the log makes the writer unusable; other I/O errors may pass.
        if error.code == .io, let w = run.writer { #expect(w.isUsable, "\(label): \(error)") }
        if error.code == .notDurable {
            #expect(run.writer.map { !$0.isUsable } ?? true, "\(label)")
            #expect(error.message.contains("reopen"), "\(label)")
        }
    }

    /// The log holds only whole batches after the acknowledged bytes, verifies, and keeps its torn tail somewhere.
    func checkLog(run: Run, label: String) throws {
        let bytes = (try? Files.bytes(run.log)) ?? []
        #expect(bytes.starts(with: run.acknowledged), "\(label): acknowledged bytes changed")
        if run.scenario == .create && !FileManager.default.fileExists(atPath: run.log) { return }
        let report = try verify(path: run.log)
        #expect(report.isOK, "\(label): \(String(describing: report.problem))")
        #expect([run.eventsBefore, run.eventsBefore + 3].contains(report.events), "\(label): \(report.events) events")
        let tail = SyscallTableTests.tail
        if run.scenario.hasTornTail {
            let inLog = bytes.count >= tail.count && bytes.suffix(tail.count).elementsEqual(tail)
            let sides = try run.sideFiles()
            #expect(inLog || sides.contains(tail), "\(label): the torn tail is lost")
            #expect(sides.allSatisfy { tail.starts(with: $0) }, "\(label): a side file holds something else")
            if !inLog { #expect(report.warnings.isEmpty, "\(label)") }
        } else {
            #expect(report.warnings.isEmpty, "\(label): \(report.warnings)")
            #expect(try run.sideFiles().isEmpty, "\(label)")
        }
    }

    /// Redoes the operation without faults: on the same writer if it still works, else on a fresh one.
    func redo(run: Run, expected: String, expectedBytes: [UInt8], label: String) throws {
        run.faults.clear()
        if let w = run.writer, !w.isUsable {
            // A failed fsync (or undo): no retry on the same descriptor, the file is not touched.
            let before = run.faults.attempts
            let refused = #expect(throws: LedgerError.self, "\(label)") { try w.append(try Make.answers(7...9)) }
            #expect(refused?.code == .unusable, "\(label)")
            #expect(run.faults.attempts == before, "\(label): an unusable writer made a system call")
            run.writer = nil
        }
        if run.scenario == .verify {
            #expect(try run.operate() == expected, "\(label)")
            return
        }
        if let w = run.writer {
            if run.scenario.opensInTheOperation {
                // The open had worked; only the append is redone on it.
                #expect(throws: Never.self, "\(label)") { try w.append(try Make.answers(7...9)) }
            } else {
                let again = Result { () throws(LedgerError) in try run.operate() }
                #expect((try? again.get()) == expected, "\(label): the same writer could not redo it: \(again)")
            }
        } else {
            let counting = FaultInjector()
            let logWasEmpty = (try? Files.bytes(run.log))?.isEmpty ?? false
            let fresh = try LedgerWriter(path: run.log, create: run.scenario == .create, system: System(faults: counting))
            if logWasEmpty {
                // A log left empty by a failed create: the next writer makes its directory entry durable.
                #expect(counting.attempts[.fsync, default: 0] >= 1, "\(label): the empty log's directory was not synced")
            }
            try fresh.append(try Make.answers(7...9))
        }
        #expect(try Files.bytes(run.log) == expectedBytes, "\(label): the final log differs from the dry run's")
        let report = try verify(path: run.log)
        #expect(report.isOK && report.warnings.isEmpty && report.events == run.eventsBefore + 3, "\(label)")
        if run.scenario.hasTornTail { #expect(try run.sideFiles().contains(SyscallTableTests.tail), "\(label)") }
    }
}
