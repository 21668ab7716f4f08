import Events
import Foundation
import Testing
@testable import Ledger

/// Every refusal names its kind as the spec and the docs spell it (scripts
/// match on it): a `LedgerError`'s description is `PATH: KIND: message`, or
/// `PATH: message` when the message names the kind already (a damaged line's
/// `line K: broken_chain: ...`).
@Suite("Each kind of LedgerError names its kind")
struct LedgerErrorKindTests {
    /// The error `body` throws.
    static func error(_ body: () throws -> Void) -> LedgerError? {
        do { try body() } catch let error as LedgerError { return error } catch { Issue.record("not a LedgerError: \(error)") }
        return nil
    }

    /// One real error of each code, made by the operation that refuses so.
    static func realErrors(in dir: TempDir) throws -> [LedgerError.Code: LedgerError] {
        var made: [LedgerError.Code: LedgerError] = [:]
        func note(_ error: LedgerError?) { if let error { made[error.code] = error } }
        let log = dir.file("a.log")
        try LedgerWriter(path: log).append(try Make.answers(1...2))

        note(error { _ = try SmallFile.read(log, limit: 10) })                                      // io
        note(error { try LedgerWriter(path: log).append(try Make.answer("e-1", question: 9)) })     // conflicting_duplicate
        note(error { _ = try LogReader(path: dir.file("none.log")).verify().checkedHead(path: dir.file("none.log")) })
        note(error { _ = try LedgerWriter(path: dir.path) })                                        // is_directory
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.log"), withDestinationPath: log)
        note(error { _ = try LedgerWriter(path: dir.file("link.log")) })                            // symlink
        note(error { _ = try SmallFile.read("/dev/null") })                                         // not_regular_file
        note(error { _ = try LogMerge.merge([log], into: log) })                                    // permission
        let closed = try LedgerWriter(path: log)
        closed.close()
        note(error { try closed.append(try Make.answers(3...3)) })                                  // unusable
        let moved = try LedgerWriter(path: log)
        try FileManager.default.moveItem(atPath: log, toPath: dir.file("b.log"))
        try FileManager.default.copyItem(atPath: dir.file("b.log"), toPath: log)
        note(error { try moved.append(try Make.answers(3...3)) })                                   // replaced
        moved.close()

        // A replica whose line 2 the source rewrote, and an input cut short.
        let replica = Replica(path: dir.file("replica.log"))
        let lines = try Files.bytes(log).split(separator: 0x0A).map(Array.init)
        try replica.pull(lines)
        var rewritten = lines
        rewritten[1] = Array(String(decoding: lines[1], as: UTF8.self).replacingOccurrences(of: "q2", with: "q7").utf8)
        note(error { try replica.pull(rewritten, source: "stdin") })                                // replica_diverged
        note(error { try replica.pull(input: lines[0], source: "stdin") })                          // invalid_event (no LF)

        // A damaged log: line 2's prev no longer chains.
        var damaged = try Files.bytes(log)
        damaged[damaged.count - 4] = damaged[damaged.count - 4] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        let bad = dir.file("bad.log")
        try Files.write(bad, damaged)
        note(error { _ = try LogReader(path: bad).verify().checkedHead(path: bad) })               // damaged

        // A failed fsync after the write, and a failed undo of a failed write.
        let faults = FaultInjector()
        let durable = try LedgerWriter(path: dir.file("c.log"), create: true, system: System(faults: faults))
        faults.inject(.fail(.ioError), into: .fsync)
        note(error { try durable.append(try Make.answers(1...1)) })                                 // not_durable
        let undo = FaultInjector()
        let torn = try LedgerWriter(path: dir.file("d.log"), create: true, system: System(faults: undo))
        undo.inject(.shortWrite(50), into: .write)
        undo.inject(.fail(.ioError), into: .write, after: 1)
        undo.inject(.fail(.ioError), into: .ftruncate)
        note(error { try torn.append(try Make.answers(1...3)) })                                    // needs_recovery
        return made
    }

    @Test("a real refusal of every code prints its kind")
    func everyCodeFromARealOperation() throws {
        let dir = try TempDir("kinds")
        defer { dir.cleanup() }
        let made = try Self.realErrors(in: dir)
        for code in LedgerError.Code.allCases {
            guard let error = made[code] else {
                Issue.record("no operation made a \(code.rawValue) error")
                continue
            }
            #expect(LedgerError.names(error.description, error.kind), "\(code.rawValue): \(error.description)")
            #expect(error.description.hasPrefix(error.path + ": "))
        }
        #expect(made[.replicaDiverged]?.description.contains("replica.log: replica_diverged: stdin line 2 (seq 2") == true)
        #expect(made[.damaged]?.kind == "broken_chain")
        #expect(made[.invalidEvent]?.description.contains("invalid_event: stdin line 1 has no LF at its end") == true)
    }

    @Test("every code, with a message that does not name it, gets it after the path", arguments: LedgerError.Code.allCases)
    func everyCodeIsNamed(_ code: LedgerError.Code) {
        let error = LedgerError(code, path: "x.log", "something went wrong")
        #expect(error.kind == code.rawValue)
        #expect(error.description == "x.log: \(code.rawValue): something went wrong")
        #expect(error.detail == "\(code.rawValue): something went wrong")
    }

    @Test("a message that names its kind is not given it twice; a word inside another does not count")
    func namedOnce() {
        let duplicate = LedgerError(.conflictingDuplicate, path: "x.log", "event 1 of 1 is refused: conflicting_duplicate: id \"e-1\"")
        #expect(duplicate.description == "x.log: event 1 of 1 is refused: conflicting_duplicate: id \"e-1\"")
        #expect(LedgerError(.io, path: "x.log", "a position in the ratio").description == "x.log: io: a position in the ratio")
        #expect(LedgerError(.permission, path: "x.log", "not_permission").description == "x.log: permission: not_permission")
        let problem = LineProblem(line: 4, kind: .brokenChain, "prev is not the SHA-256 of line 3")
        let damaged = LedgerError(damaged: problem, path: "x.log")
        #expect(damaged.kind == "broken_chain")
        #expect(damaged.description == "x.log: \(problem)")
    }
}

extension LedgerErrorKindTests {
    @Test("a damaged log's problem names its kind (misrouted is one: no message is parsed); other damaged messages get the code")
    func damagedKinds() {
        let misrouted = LedgerError(damaged: LineProblem(line: 8, kind: .misrouted, "an event of another learner"), path: "l.log")
        #expect(misrouted.kind == "misrouted")
        #expect(misrouted.description == "l.log: line 8: misrouted: an event of another learner")
        // A message that looks like a problem's is not one: the kind is the code's.
        #expect(LedgerError(.damaged, path: "l.log", "line 8: misrouted: an event of another learner").kind == "damaged")
        #expect(LedgerError(.damaged, path: "ledger.json", "not a ledger manifest: not a JSON object").description
                == "ledger.json: damaged: not a ledger manifest: not a JSON object")
        #expect(LedgerError(.damaged, path: "l.log", "").description == "l.log: damaged: ")
    }
}
