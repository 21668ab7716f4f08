import Events
import Foundation
import Ledger
@testable import ProgressLedger
import Projections
import Testing

/// A fresh temporary directory.
struct Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { url.appendingPathComponent(name).path }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// An `answer.selected` of `user`, built from JSON text (independent of the payload initialisers).
func answer(_ id: String, user: String, question: Int) throws -> NewEvent {
    try JSONDecoder().decode(NewEvent.self, from: Data(#"{"id":"\#(id)","at":"2025-10-21T09:00:00Z","user":"\#(user)","type":"answer.selected","data":{"attempt":"a-1","question":"q\#(question)","choice":1,"correct":true}}"#.utf8))
}

/// A new store of `log` with at most two groups on disk, one event appended
/// with its `fsync` slowed to 20 ms through `faults`: the overlap policy then
/// lets two groups be on disk, whatever this machine's disk and CPU take today.
func storeWithTwoOnDisk(_ log: String, faults: FaultInjector) async throws -> LedgerStore {
    let store = try LedgerStore(path: log, create: true, faults: faults, groupsOnDisk: 2)
    faults.inject(.delay(20_000), into: .fsync)
    try await store.append(answer("before", user: "u", question: 0))
    return store
}

/// Polls `condition` every millisecond; records an issue and throws after 10 s (a test never hangs).
func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    for _ in 0..<10_000 {
        if condition() { return }
        try await Task.sleep(nanoseconds: 1_000_000)
    }
    Issue.record("waited 10 s in vain", sourceLocation: sourceLocation)
    throw CancellationError()
}

@Suite("LedgerStore: group commit")
struct LedgerStoreTests {
    @Test("many tasks appending single events: every event exactly once, at the seq its caller got, chain intact")
    func concurrentAppenders() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let store = try await LedgerStore.open(path: log)
        let tasks = 48, each = 20
        let results = try await withThrowingTaskGroup(of: [AppendResult].self) { group in
            for t in 0..<tasks {
                group.addTask {
                    var mine: [AppendResult] = []
                    for k in 0..<each { mine.append(try await store.append(answer("t\(t)-\(k)", user: "u-\(t % 5)", question: k))) }
                    // A re-sent event is already there, at the same seq.
                    let again = try await store.append(answer("t\(t)-0", user: "u-\(t % 5)", question: 0))
                    #expect(again.status == .alreadyPresent && again.seq == mine[0].seq)
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        await store.close()
        // Checked by the reader, as verify checks: every seq, prev link and id.
        let report = try verify(path: log)
        #expect(report.isOK)
        #expect(report.events == tasks * each)
        var seen: [Int: String] = [:]
        try LogReader(path: log).read { record in seen[record.seq] = record.id }
        #expect(seen.count == tasks * each)
        #expect(Set(seen.values) == Set((0..<tasks).flatMap { t in (0..<each).map { "t\(t)-\($0)" } }))
        for r in results { #expect(r.status == .appended && seen[r.seq] == r.id) }
        // The writer's own per-caller order: a task's events are in the log in the order it appended them.
        for t in 0..<tasks {
            let seqs = results.filter { $0.id.hasPrefix("t\(t)-") }.sorted { $0.id.split(separator: "-")[1].count == $1.id.split(separator: "-")[1].count ? $0.id < $1.id : $0.id.count < $1.id.count }.map(\.seq)
            #expect(seqs == seqs.sorted())
        }
    }

    @Test("the groups' lines, sealed as their callers join, are byte for byte what one writer appending the same events in the same order writes")
    func sameBytesAsOneWriter() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log"), plain = dir.file("plain")
        let store = try await LedgerStore.open(path: log)
        // Callers of one event and callers of three, several rounds each: many groups, of both kinds of caller.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<24 {
                group.addTask {
                    for k in 0..<12 {
                        if t % 4 == 0 {
                            try await store.append((0..<3).map { try answer("t\(t)-\(k)-\($0)", user: "u-\(t % 5)", question: $0) })
                        } else {
                            try await store.append(answer("t\(t)-\(k)", user: "u-\(t % 5)", question: k))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = store.groupCounts
        await store.close()
        #expect(counts.groups > 1 && counts.largest > 1 && counts.sealedAhead == counts.groups, "groups: \(counts)")
        // The same events, in the order the store wrote them, appended one by one by a writer of their own
        // (which seals under its lock, after its own last line).
        var events: [NewEvent] = []
        try LogReader(path: log).read { record in
            guard case .event(let e) = record else { Issue.record("line \(record.seq) is not an event"); return }
            events.append(NewEvent(id: e.id, at: e.at, user: e.user, device: e.device, event: e.event))
        }
        let expected: Int = 18 * 12 + 6 * 12 * 3   // 18 callers of one event, 6 of three, 12 rounds each
        #expect(events.count == expected)
        let writer = try LedgerWriter(path: plain)
        for e in events { try writer.append(e) }
        writer.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let written = try Data(contentsOf: URL(fileURLWithPath: plain))
        #expect(bytes.count > 0 && bytes == written)
    }

    @Test("appends waiting together are one write and one fsync; a bad event fails only its caller")
    func oneGroup() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try LedgerStore(path: log, create: true, faults: faults)
        let release = store.holdCommits()
        let fsyncsBefore = faults.attempts[.fsync, default: 0]
        let appenders = Task {
            try await withThrowingTaskGroup(of: (Int, Result<AppendResult, LedgerError>).self) { group in
                for k in 0..<12 {
                    group.addTask {
                        let events: [NewEvent]
                        switch k {
                        case 7:
                            // Caller 7's batch holds one id twice with different content: refused on the
                            // caller's side, before it joins the group (the same content twice would be written once).
                            events = [try answer("dup", user: "u", question: 1), try answer("dup", user: "u", question: 2)]
                        case 8:
                            // Caller 8 sends caller 3's id with other content: the writer refuses whichever came later.
                            events = [try answer("e-3", user: "u", question: 99)]
                        case 9:
                            // Caller 9 sends caller 4's event again: written once, in the same group.
                            events = [try answer("e-4", user: "u", question: 4)]
                        default:
                            events = [try answer("e-\(k)", user: "u", question: k)]
                        }
                        do throws(LedgerError) { return (k, .success(try await store.append(events)[0])) } catch { return (k, .failure(error)) }
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
        }
        try await waitUntil { store.waitingCount == 11 }
        release()
        let outcomes = try await appenders.value
        #expect(faults.attempts[.fsync, default: 0] - fsyncsBefore == 1)
        #expect(store.groupCounts.groups == 1)
        for k in [0, 1, 2, 5, 6, 10, 11] {
            guard case .success(let r)? = outcomes[k] else { Issue.record("caller \(k): \(String(describing: outcomes[k]))"); continue }
            #expect(r.status == .appended)
        }
        if case .failure(let e)? = outcomes[7] { #expect(e.code == .conflictingDuplicate && e.eventIndex == 1) } else { Issue.record("caller 7 appended") }
        // 3 and 8: one written, the other refused (its own event 0).
        switch (outcomes[3], outcomes[8]) {
        case (.success(let r)?, .failure(let e)?), (.failure(let e)?, .success(let r)?):
            #expect(r.status == .appended && e.code == .conflictingDuplicate && e.eventIndex == 0)
        default:
            Issue.record("callers 3 and 8: \(String(describing: outcomes[3])), \(String(describing: outcomes[8]))")
        }
        // 4 and 9: one line, both callers answered with its seq.
        if case .success(let a)? = outcomes[4], case .success(let b)? = outcomes[9] {
            #expect(a.seq == b.seq && Set([a.status, b.status]) == [.appended, .alreadyPresent])
        } else {
            Issue.record("callers 4 and 9: \(String(describing: outcomes[4])), \(String(describing: outcomes[9]))")
        }
        #expect(try verify(path: log).events == 9)
        await store.close()
    }

    @Test("a failed fsync fails every caller of its group, and the store refuses later appends")
    func failedFsync() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try LedgerStore(path: log, create: true, faults: faults)
        try await store.append(answer("first", user: "u", question: 0))
        let events = try (0..<12).map { try answer("e-\($0)", user: "u", question: $0) }
        let release = store.holdCommits()
        faults.inject(.fail(.ioError), into: .fsync)
        let appenders = Task {
            await withTaskGroup(of: LedgerError?.self) { group in
                for event in events {
                    group.addTask {
                        do throws(LedgerError) { _ = try await store.append(event); return nil } catch { return error }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        try await waitUntil { store.waitingCount == 12 }
        release()
        let errors = await appenders.value
        #expect(errors.count == 12)
        #expect(errors.allSatisfy { $0?.code == .notDurable })
        #expect(!store.isUsable)
        let later = try answer("later", user: "u", question: 99)
        do throws(LedgerError) {
            try await store.append(later)
            Issue.record("a broken store appended")
        } catch {
            #expect(error.code == .unusable)
        }
        await store.close()
    }

    @Test("32 tasks appending in a loop: groups overlap on disk (at most `groupsOnDisk` fsyncs at once), each task's events in its order, every one once")
    func overlappingGroups() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        // A disk of a steady, slowish fsync (2 ms through the fault seam): callers
        // join while a group is on disk, however fast this machine's disk is today.
        faults.inject(.delay(2_000), into: .fsync, times: Int.max)
        let store = try LedgerStore(path: log, create: true, faults: faults)
        let tasks = 32, each = 25
        let fsyncsBefore = faults.attempts[.fsync, default: 0]
        let results = try await withThrowingTaskGroup(of: [AppendResult].self) { group in
            for t in 0..<tasks {
                group.addTask {
                    var mine: [AppendResult] = []
                    for k in 0..<each { mine.append(try await store.append(answer("t\(t)-\(k)", user: "u-\(t % 3)", question: k))) }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let counts = store.groupCounts
        await store.close()
        #expect(counts.events == tasks * each)
        #expect(counts.mostOnDisk >= 1 && counts.mostOnDisk <= LedgerStore.groupsOnDisk, "groups: \(counts)")
        // One fsync a group (its own descriptor), and groups of more than one caller.
        #expect(faults.attempts[.fsync, default: 0] - fsyncsBefore == counts.groups)
        // Groups gather several callers (how many depends on the scheduler's
        // moods; the exact overlap is the next test's, with a held fsync).
        #expect(counts.groups < tasks * each && counts.largest > 1, "groups: \(counts)")
        #expect(counts.sealedAhead == counts.groups)
        for mine in results { #expect(mine.map(\.seq) == mine.map(\.seq).sorted()) }
        #expect(Set(results.joined().map(\.seq)) == Set(1...(tasks * each)))
        #expect(try verify(path: log).events == tasks * each)
    }

    @Test("a group written while the group before is on disk: sealed on its last line, written before that fsync returns, acknowledged after it")
    func nextGroupWhileOnDisk() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try LedgerStore(path: log, create: true, faults: faults)
        let held = FsyncGate()
        faults.before(.fsync) { held.pass() }
        let fsyncs = faults.attempts[.fsync, default: 0]
        let first = Task { try await store.append(answer("a", user: "u", question: 0)) }
        try await waitUntil { held.holding(0) }
        // While group 1's fsync is held, group 2 (five callers, gathered while the commit thread is held)
        // is sealed on its line, written, and its own fsync runs.
        let gather = store.holdCommits()
        let returned = NSLock(), count = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        count.initialize(to: 0)
        defer { count.deallocate() }
        nonisolated(unsafe) let counter = count
        let later = (1...5).map { k in
            Task {
                let r = try await store.append(answer("b-\(k)", user: "u", question: k))
                returned.withLock { counter.pointee += 1 }
                return r
            }
        }
        try await waitUntil { store.waitingCount == 5 }
        gather()
        try await waitUntil { (try? verify(path: log).events) == 6 && faults.attempts[.fsync, default: 0] >= fsyncs + 1 }
        #expect(try verify(path: log).isOK)
        // Its fsync returned, but group 1's has not: nobody is acknowledged yet.
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(store.groupCounts.mostOnDisk == 2)
        #expect(held.holding(0) && returned.withLock { counter.pointee } == 0)
        held.release(0)
        let a = try await first.value
        var seqs: [Int] = []
        for task in later { seqs.append(try await task.value.seq) }
        #expect(a.seq == 1 && Set(seqs) == Set(2...6))
        #expect(store.groupCounts.groups == 2 && store.groupCounts.sealedAhead == 2)
        await store.close()
    }

    @Test("a failed fsync of group k fails its callers and those of the group written on top of it, the callers waiting are refused, the store refuses appends; the log stays whole")
    func failedFsyncUnderAnotherGroup() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try await storeWithTwoOnDisk(log, faults: faults)
        #expect(store.groupCounts.depth == 2, "\(store.groupCounts)")
        // Groups k's and k+1's fsyncs are held; k's then fails (the fault is set as it is let go).
        let held = FsyncGate(count: 2) { k in if k == 0 { faults.inject(.fail(.ioError), into: .fsync) } }
        faults.before(.fsync) { held.pass() }
        func send(_ id: String, _ q: Int) -> Task<Result<AppendResult, LedgerError>, Never> {
            Task {
                do throws(LedgerError) {
                    guard let event = try? answer(id, user: "u", question: q) else { throw LedgerError(.io, path: log, "no event") }
                    return .success(try await store.append(event))
                } catch { return .failure(error) }
            }
        }
        let k = send("k", 1)
        try await waitUntil { held.holding(0) }
        // Group k+1 (three callers, gathered while the commit thread is held), sealed and written on
        // top of group k while k's fsync is held.
        let gather = store.holdCommits()
        let above = (2...4).map { send("k1-\($0)", $0) }
        try await waitUntil { store.waitingCount == 3 }
        gather()
        try await waitUntil { held.holding(1) && (try? verify(path: log).events) == 5 }
        // Two groups on disk: the next callers wait, their lines sealed on top of group k+1's.
        let waiting = (5...6).map { send("w-\($0)", $0) }
        try await waitUntil { store.waitingCount == 2 }
        held.release(0)
        try await waitUntil { !store.isUsable }
        held.release(1)
        guard case .failure(let e) = await k.value else { Issue.record("group k was acknowledged"); return }
        #expect(e.code == .notDurable)
        for task in above {
            guard case .failure(let e) = await task.value else { Issue.record("a caller of group k+1 was acknowledged"); continue }
            #expect(e.code == .notDurable)
        }
        for task in waiting {
            guard case .failure(let e) = await task.value else { Issue.record("a waiting caller was acknowledged"); continue }
            #expect(e.code == .unusable)
        }
        guard case .failure(let refused) = await send("after", 9).value else { Issue.record("a broken store appended"); return }
        #expect(refused.code == .unusable)
        await store.close()
        // Whole: the first line and both groups' lines, chained; nothing of the callers that waited.
        let report = try verify(path: log)
        #expect(report.isOK && report.events == 5)
    }

    @Test("close writes every caller already waiting, refuses later ones, and ends: every acknowledged event is in the log")
    func closeWhileAppending() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let store = try await LedgerStore.open(path: log)
        let appenders = Task {
            await withTaskGroup(of: [String].self) { group in
                for t in 0..<16 {
                    group.addTask {
                        var acknowledged: [String] = []
                        for k in 0..<1_000 {
                            let id = "t\(t)-\(k)"
                            do throws(LedgerError) {
                                guard let event = try? answer(id, user: "u", question: k) else { return acknowledged }
                                try await store.append(event)
                                acknowledged.append(id)
                            } catch {
                                #expect(error.code == .unusable)
                                return acknowledged
                            }
                        }
                        return acknowledged
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
        }
        try await waitUntil { store.groupCounts.groups >= 5 }
        await store.close()
        let acknowledged = await appenders.value
        var inLog = Set<String>()
        try LogReader(path: log).read { inLog.insert($0.id) }
        #expect(Set(acknowledged).isSubset(of: inLog))
        #expect(try verify(path: log).isOK)
    }

    @Test("a failed fsync mid-run, with nothing held: every task gets the error once, every acknowledged event is in the log at its seq, the log is whole")
    func failedFsyncMidRun() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try LedgerStore(path: log, create: true, faults: faults)
        // The sixth fsync from now fails, whichever thread runs it, while 32 tasks keep appending.
        faults.inject(.fail(.ioError), into: .fsync, after: 5)
        let outcomes = await withTaskGroup(of: ([AppendResult], LedgerError?).self) { group in
            for t in 0..<32 {
                group.addTask {
                    var acknowledged: [AppendResult] = []
                    for k in 0..<200 {
                        do throws(LedgerError) {
                            guard let event = try? answer("t\(t)-\(k)", user: "u-\(t % 3)", question: k) else { return (acknowledged, nil) }
                            acknowledged.append(try await store.append(event))
                        } catch {
                            return (acknowledged, error)
                        }
                    }
                    return (acknowledged, nil)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        await store.close()
        let errors = outcomes.compactMap(\.1)
        // 32 × 200 events take far more than six groups: every task met the failure (or the refusal after it).
        #expect(errors.count == 32)
        #expect(errors.allSatisfy { $0.code == .notDurable || $0.code == .unusable })
        #expect(errors.contains { $0.code == .notDurable })
        #expect(!store.isUsable)
        // Whole: what was written (the failed group's lines included) chains; every acknowledged event is there, at its seq.
        let report = try verify(path: log)
        #expect(report.isOK)
        var inLog: [Int: String] = [:]
        try LogReader(path: log).read { inLog[$0.seq] = $0.id }
        let acknowledged = outcomes.flatMap(\.0)
        #expect(!acknowledged.isEmpty)
        for r in acknowledged { #expect(inLog[r.seq] == r.id) }
        // Groups are acknowledged in write order and none after the failed one: the acknowledged lines are the log's first ones.
        #expect(Set(acknowledged.map(\.seq)) == Set(1...max(1, acknowledged.count)))
    }

    @Test("a group holds at most 4,096 events: a caller that would pass it waits for the next group; a larger batch is a group of its own")
    func groupLimit() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try LedgerStore(path: log, create: true, faults: faults)
        let at = try Timestamp(parsing: "2025-10-21T09:00:00Z")
        func batch(_ name: String, _ n: Int) -> [NewEvent] {
            (0..<n).map { k in
                NewEvent(id: "\(name)-\(k)", at: at, user: "u",
                         event: .answerSelected(AnswerSelected(attempt: "a-\(name)", question: "q\(k)", choice: 1, correct: true)))
            }
        }
        let release = store.holdCommits()
        let fsyncsBefore = faults.attempts[.fsync, default: 0]
        var appenders: [Task<[AppendResult], any Error>] = []
        // One after another, so that they wait in this order: 3,000 + 2,000 + 5,000 events.
        for (k, (name, n)) in [("a", 3_000), ("b", 2_000), ("c", 5_000)].enumerated() {
            let events = batch(name, n)
            appenders.append(Task { try await store.append(events) })
            try await waitUntil { store.waitingCount == k + 1 }
        }
        release()
        var results: [AppendResult] = []
        for task in appenders { results += try await task.value }
        let counts = store.groupCounts
        await store.close()
        #expect(counts.groups == 3 && counts.largest == 5_000 && counts.events == 10_000)
        #expect(faults.attempts[.fsync, default: 0] - fsyncsBefore == 3)
        #expect(results.map(\.seq) == Array(1...10_000))
        #expect(try verify(path: log).events == 10_000)
    }
}


/// Holds the first `count` fsyncs that pass it, each until released (by its
/// number, from 0), then runs `then` with that number (on the fsync's thread,
/// before the call is made): the fault seam's hook.
final class FsyncGate: @unchecked Sendable {
    // `@unchecked Sendable`: `passed` and `released` are read and written only under `lock`.
    private let lock = NSLock()
    private let gates: [DispatchSemaphore]
    private let then: @Sendable (Int) -> Void
    private var passed = 0
    private var released: Set<Int> = []

    init(count: Int = 1, then: @escaping @Sendable (Int) -> Void = { _ in }) {
        gates = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        self.then = then
    }

    /// Called before each fsync: the first `count` wait until released, then run `then`.
    func pass() {
        let k = lock.withLock { () -> Int in
            passed += 1
            return passed - 1
        }
        guard k < gates.count else { return }
        gates[k].wait()
        then(k)
    }

    /// Whether fsync `k` reached the gate and waits there.
    func holding(_ k: Int = 0) -> Bool { lock.withLock { passed > k && !released.contains(k) } }

    /// Lets fsync `k` go on.
    func release(_ k: Int = 0) {
        lock.withLock { _ = released.insert(k) }
        gates[k].signal()
    }
}

@Suite("LedgerStore: format version 2")
struct LedgerStoreVersionTwoTests {
    /// One event to append, from append-input JSON.
    func event(_ json: String) throws -> NewEvent { try JSONDecoder().decode(NewEvent.self, from: Data(json.utf8)) }

    @Test("freeze grants and pauses go through the store like any event: written with v 2, folded into the live streak")
    func freezesAndPauses() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let store = try await LedgerStore.open(path: log)
        try await store.track(StateOptions(user: "u"))
        let lines = [
            #"{"id":"s1","at":"2025-03-01T09:00:00Z","user":"u","type":"quiz.started","data":{"attempt":"a1","quiz":"d","questions":1,"daily":true}}"#,
            #"{"id":"f1","at":"2025-03-01T09:05:00Z","user":"u","type":"quiz.finished","data":{"attempt":"a1"}}"#,
            #"{"id":"g1","at":"2025-03-01T20:00:00Z","user":"u","type":"streak.freeze_granted","data":{"amount":1,"reason":"reward"}}"#,
            #"{"id":"p1","at":"2025-03-01T21:00:00Z","user":"u","type":"streak.paused","data":{"from":"2025-03-03","to":"2025-03-04"}}"#,
            #"{"id":"s5","at":"2025-03-05T09:00:00Z","user":"u","type":"quiz.started","data":{"attempt":"a5","quiz":"d","questions":1,"daily":true}}"#,
            #"{"id":"f5","at":"2025-03-05T09:05:00Z","user":"u","type":"quiz.finished","data":{"attempt":"a5"}}"#,
        ]
        let results = try await store.append(lines.map(event))
        #expect(results.map(\.status) == Array(repeating: .appended, count: 6))
        // 01 ✓ (+1) · 02 – ❄ · 03 ‖ · 04 ‖ · 05 ✓ = D.
        let streak = try await store.state(of: "u").streak
        #expect(streak == Streak(current: 2, activeToday: true, longest: 2,
                                 runs: [Streak.Run(start: Day("2025-03-01")!, end: Day("2025-03-05")!, days: 2,
                                                   frozen: [Day("2025-03-02")!], paused: 2)],
                                 freezes: Streak.Freezes(held: 0, granted: 1, used: 1)))
        // Codable already refuses a backdated pause; one built in Swift fails at the store, its caller only, writing nothing.
        #expect(throws: DecodingError.self) {
            _ = try event(#"{"id":"p2","at":"2025-03-05T10:00:00Z","user":"u","type":"streak.paused","data":{"from":"2025-03-04","to":"2025-03-06"}}"#)
        }
        let backdated = NewEvent(id: "p2", at: try Timestamp(parsing: "2025-03-05T10:00:00Z"), user: "u",
                                 event: .streakPaused(StreakPaused(from: Day("2025-03-04")!, to: Day("2025-03-06")!)))
        await #expect(throws: LedgerError.self) { _ = try await store.append(backdated) }
        await store.close()
        let written = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self).split(separator: "\n")
        #expect(written.count == 6)
        #expect(written.map { $0.prefix(7) } == [#"{"v":1,"#, #"{"v":1,"#, #"{"v":2,"#, #"{"v":2,"#, #"{"v":1,"#, #"{"v":1,"#])
    }
}
