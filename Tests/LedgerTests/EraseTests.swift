import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// `erase` on seeded demo logs: the chain, old heads, the other learners'
/// records, the files beside the log, appends after, and a failure injected
/// into every system call the erasure makes.
@Suite("Erase a learner")
struct EraseTests {
    /// A demo log written through the ledger, in its own folder.
    struct Fixture {
        let dir: TempDir
        let log: String
        let events: [NewEvent]
        /// The head after each line of the original log (index 0 is line 1).
        let heads: [Head]

        init(seed: UInt64, users: Int = 4, days: Int = 6) throws {
            dir = try TempDir("erase")
            log = dir.file("progress.log")
            events = Array(DemoLog(.init(users: users, days: days, seed: seed)))
            let writer = try LedgerWriter(path: log)
            try writer.append(events)
            writer.close()
            // Heads computed independently: SHA-256 of each line's bytes.
            heads = try Files.lines(log).enumerated().map { k, line in
                Head(seq: k + 1, sha256: line.withUnsafeBytes { SHA256.hash($0) })
            }
        }

        /// The users of the log, in order of first appearance.
        var users: [String] {
            var seen: [String] = []
            for e in events where !seen.contains(e.user) { seen.append(e.user) }
            return seen
        }

        /// The records of `user` (every record when nil), read through the public reader.
        func records(_ user: String?) throws -> [Record] {
            var out: [Record] = []
            try LogReader(path: log).read(.init(user: user)) { out.append($0) }
            return out
        }
    }

    /// Every byte of every file in `dir` (not descending: the ledger writes no folders).
    static func everyFile(_ dir: TempDir) throws -> [(String, [UInt8])] {
        try dir.files().map { ($0, try Files.bytes(dir.file($0))) }
    }

    static func occurs(_ needle: String, in bytes: [UInt8]) -> Bool {
        let n = Array(needle.utf8)
        guard bytes.count >= n.count else { return false }
        return (0...(bytes.count - n.count)).contains { bytes[$0..<($0 + n.count)].elementsEqual(n) }
    }

    @Test("erasing a learner keeps the chain, every old head and every other learner", arguments: [UInt64(1), 7, 42])
    func eraseKeepsEverythingElse(seed: UInt64) throws {
        let f = try Fixture(seed: seed)
        defer { f.dir.cleanup() }
        var rng = SplitMix64(seed: seed)
        let users = f.users
        let victim = users[Int(rng.next() % UInt64(users.count))]
        let others = users.filter { $0 != victim }
        let before = try Dictionary(uniqueKeysWithValues: others.map { ($0, try f.records($0)) })
        let victimSeqs = try f.records(victim).map(\.seq)
        let victimIDs = f.events.filter { $0.user == victim }.compactMap(\.id)
        #expect(!victimSeqs.isEmpty)

        let receipt = try erase(path: f.log, user: victim)
        #expect(receipt.erasedSeqs == victimSeqs)
        #expect(receipt.headBefore == f.heads.last)
        #expect(receipt.headAfter == f.heads.last)

        // verify passes, counts the stubs, and every head kept before still checks.
        let report = try verify(path: f.log)
        #expect(report.isOK, "\(String(describing: report.problem))")
        #expect(report.summary.redactedLines == victimSeqs.count)
        #expect(report.events == f.heads.count)
        for head in f.heads {
            #expect(try verify(path: f.log, expectHead: head).isOK, "head \(head) no longer checks")
        }
        // A changed stub is still caught: its hash is the link.
        let lines = try Files.lines(f.log)
        let first = victimSeqs[0] - 1
        #expect(RedactionStub.decode(lines[first]) == RedactionStub(seq: victimSeqs[0], redacted: f.heads[first].sha256.hex,
                                                                    prev: first == 0 ? Envelope.genesis : f.heads[first - 1].sha256.hex))
        // The other learners' records are the same values; the victim has none.
        for user in others { #expect(try f.records(user) == before[user]) }
        #expect(try f.records(victim).isEmpty)
        #expect(try f.records(nil).count == f.events.count - victimSeqs.count)

        // No byte of the learner anywhere in the folder.
        for (name, bytes) in try Self.everyFile(f.dir) {
            #expect(!Self.occurs(victim, in: bytes), "\(name) still holds \(victim)")
            for id in victimIDs { #expect(!Self.occurs("\"\(id)\"", in: bytes), "\(name) still holds id \(id)") }
        }

        // Appending for the learner works; an erased id is appended again.
        let writer = try LedgerWriter(path: f.log)
        let again = f.events.first { $0.user == victim }!
        let results = try writer.append([again])
        #expect(results.map(\.status) == [.appended])
        #expect(results.first?.seq == f.heads.count + 1)
        writer.close()
        #expect(try verify(path: f.log).isOK)
        #expect(try f.records(victim).count == 1)
        // Erasing again erases that line only and keeps the earlier stubs.
        let second = try erase(path: f.log, user: victim)
        #expect(second.erasedSeqs == [f.heads.count + 1])
        #expect(second.alreadyRedacted == victimSeqs.count)
    }

    @Test("a dry run changes nothing and says what an erasure would do")
    func dryRun() throws {
        let f = try Fixture(seed: 3)
        defer { f.dir.cleanup() }
        let user = f.users[1]
        let bytes = try Self.everyFile(f.dir).map { $0.1 }
        let dry = try erase(path: f.log, user: user, dryRun: true)
        #expect(try Self.everyFile(f.dir).map { $0.1 } == bytes)
        let real = try erase(path: f.log, user: user)
        #expect(dry.dryRun && !real.dryRun)
        #expect(dry.erasedSeqs == real.erasedSeqs && dry.headBefore == real.headBefore)
    }

    @Test("snapshots of the log are removed or rejected; torn-tail side files holding the learner are removed")
    func snapshotsAndSideFiles() throws {
        let f = try Fixture(seed: 5)
        defer { f.dir.cleanup() }
        let elsewhere = try TempDir("erase-elsewhere")
        defer { elsewhere.cleanup() }
        let users = f.users
        let (victim, other) = (users[0], users[1])
        // Snapshots: the victim's and another's beside the log, another's elsewhere.
        for (user, path) in [(victim, f.dir.file("victim.snap")), (other, f.dir.file("other.snap")),
                             (other, elsewhere.file("other.snap")), (nil, f.dir.file("all.snap"))] as [(String?, String)] {
            try LogReader(path: f.log).read(.init(user: user, snapshot: path)) { _ in }.saveSnapshot()
        }
        // A torn tail of the victim and, in a second recovery, of the other learner.
        let victimLine = try Files.lines(f.log).first { Self.occurs("\"user\":\"\(victim)\"", in: $0) }!
        try Files.append(f.log, Array(victimLine.prefix(victimLine.count - 5)))
        try LedgerWriter(path: f.log).close()
        let otherTail = Array(#"{"v":1,"seq":999,"id":"x-1","at":"2025-10-06T10:00:00Z","user":""#.utf8) + Array(other.utf8)
        try Files.append(f.log, otherTail)
        Thread.sleep(forTimeInterval: 1.1)   // side files are named by the second
        try LedgerWriter(path: f.log).close()
        let sideFiles = try f.dir.files().filter { $0.hasPrefix("progress.log.torn-") }
        #expect(sideFiles.count == 2)

        let receipt = try erase(path: f.log, user: victim)
        let left = try f.dir.files()
        #expect(!left.contains("victim.snap") && !left.contains("other.snap") && !left.contains("all.snap"))
        #expect(receipt.removedFiles.count == 4)
        // The other learner's side file stays: it holds nothing of the victim.
        #expect(left.filter { $0.hasPrefix("progress.log.torn-") }.count == 1)
        // The snapshot kept elsewhere is rejected: the log is another file now.
        let read = try LogReader(path: f.log).read(.init(user: other, snapshot: elsewhere.file("other.snap"))) { _ in }
        #expect(read.snapshotIgnored?.reason == .otherFile)
        // A snapshot made after the erasure, whose head may be a stub, is used.
        try read.saveSnapshot()
        let warm = try LogReader(path: f.log).read(.init(user: other, snapshot: elsewhere.file("other.snap"))) { _ in }
        #expect(warm.snapshotIgnored == nil)
        #expect(warm.summary.head == receipt.headAfter)
    }

    @Test("a failure at each system call of an erasure leaves the old log or the new one, and a rerun finishes")
    func faultAtEachStep() throws {
        let reference = try Fixture(seed: 11, users: 3, days: 3)
        defer { reference.dir.cleanup() }
        let victim = reference.users[2]
        let original = try Files.bytes(reference.log)
        // A dry run counts the calls an erasure makes, by name.
        let counter = FaultInjector()
        _ = try Erasure(path: reference.log, user: victim, system: System(faults: counter)).run(dryRun: false)
        let erased = try Files.bytes(reference.log)
        #expect(erased != original)
        let calls = counter.attempts.sorted { $0.key.rawValue < $1.key.rawValue }
        #expect(calls.contains { $0.key == .rename } && calls.contains { $0.key == .fsync })
        for (call, count) in calls {
            for k in 0..<count {
                let dir = try TempDir("erase-fault")
                defer { dir.cleanup() }
                let log = dir.file("progress.log")
                try Files.write(log, original)
                let faults = FaultInjector()
                faults.inject(.fail(.ioError), into: call, after: k)
                let failed: Bool
                do {
                    _ = try Erasure(path: log, user: victim, system: System(faults: faults)).run(dryRun: false)
                    failed = false
                } catch {
                    failed = true
                    #expect(error.description.contains(dir.path), "\(call) #\(k + 1): \(error) names no file")
                }
                let now = try Files.bytes(log)
                #expect(now == original || now == erased, "\(call) #\(k + 1) left a mix")
                #expect(try verify(path: log).isOK)
                if !failed { #expect(now == erased, "\(call) #\(k + 1) succeeded without erasing") }
                // A rerun finishes the erasure; nothing but the log is left. When the failed run had
                // erased every line and left no file of the learner, nothing is left to do: not_found.
                let rerun = Result { () throws(LedgerError) in try erase(path: log, user: victim) }
                if case .failure(let error) = rerun {
                    #expect(error.code == .notFound && now == erased, "\(call) #\(k + 1): the rerun failed: \(error)")
                }
                #expect(try Files.bytes(log) == erased, "\(call) #\(k + 1): the rerun differs")
                let left = try dir.files()
                #expect(left == ["progress.log"], "\(call) #\(k + 1): left \(left)")
            }
        }
    }

    @Test("only the exact stub spelling is a stub; a changed stub breaks the chain")
    func stubForm() throws {
        let f = try Fixture(seed: 13, users: 2, days: 2)
        defer { f.dir.cleanup() }
        let victim = f.users[0]
        let receipt = try erase(path: f.log, user: victim)
        let k = receipt.erasedSeqs[0] - 1
        let stub = String(decoding: try Files.lines(f.log)[k], as: UTF8.self)
        let variants = [
            stub.replacingOccurrences(of: #"{"v":1,"seq":"#, with: #"{"v":1, "seq":"#),       // a space
            stub.uppercased().replacingOccurrences(of: #""V":1,"SEQ":"#, with: #""v":1,"seq":"#)
                .replacingOccurrences(of: #""REDACTED":"#, with: #""redacted":"#).replacingOccurrences(of: #""PREV":"#, with: #""prev":"#),
            stub.replacingOccurrences(of: #""}"#, with: #"","user":"x"}"#),                  // a member more
        ]
        for variant in variants {
            var lines = try Files.lines(f.log)
            lines[k] = Array(variant.utf8)
            try Files.write(f.log, lines.flatMap { $0 + [0x0A] })
            let report = try verify(path: f.log)
            #expect(report.problem?.line == k + 1, "\(variant): \(String(describing: report.problem))")
        }
        // A stub whose hash is changed: its own line reads, the next link breaks.
        var lines = try Files.lines(f.log)
        lines[k] = Array(stub.utf8)
        let parts = try #require(RedactionStub.decode(lines[k]))
        let flipped = RedactionStub(seq: parts.seq, redacted: String(parts.redacted.reversed()), prev: parts.prev)
        lines[k] = flipped.encoded()
        try Files.write(f.log, lines.flatMap { $0 + [0x0A] })
        let report = try verify(path: f.log)
        #expect(report.problem?.line == k + 2)
        #expect(report.problem?.kind == .brokenChain)
    }
}
