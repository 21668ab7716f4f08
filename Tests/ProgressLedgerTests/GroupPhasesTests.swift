import Events
import Foundation
import Ledger
@testable import ProgressLedger
import Testing

/// The store's account of where its groups' wall time went (`GroupCounts.phases`,
/// what `store-bench group` prints per group), against delays the fault seam
/// puts into each `write` and each `fsync`: every phase is at least what was
/// injected into it, and no phase is longer than the whole run.
@Suite("GroupPhases: where a group's wall time went")
struct GroupPhasesTests {
    @Test("an fsync delayed 20 ms and a write delayed 10 ms show in the fsync and write phases of every group, within the run's wall time")
    func injectedDelaysShow() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try LedgerStore(path: log, create: true, faults: faults, groupsOnDisk: 1)
        faults.inject(.delay(20_000), into: .fsync, times: Int.max)
        faults.inject(.delay(10_000), into: .write, times: Int.max)
        let began = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for k in 0..<4 { try await store.append(answer("t\(t)-\(k)", user: "u-\(t)", question: k)) }
                }
            }
            try await group.waitForAll()
        }
        let wall = DispatchTime.now().uptimeNanoseconds - began
        let counts = store.groupCounts
        await store.close()
        let p = counts.phases
        let groups = UInt64(counts.groups)
        #expect(counts.events == 32 && groups >= 1)
        // Every group was written once and fsync'd once (one on disk at a time): each phase holds its delay per group.
        #expect(p.fsync >= groups * 20_000_000, "\(p), \(groups) groups")
        #expect(p.write >= groups * 10_000_000, "\(p), \(groups) groups")
        // One group at a time, the phases follow each other: together they fit in the run.
        #expect(p.fsync + p.write + p.gather + p.commitWake + p.syncWake + p.resume + p.ackWait <= wall, "\(p), wall \(wall)")
        // Every caller (single events: one per event) waited in the pending group, at most the whole run each.
        #expect(p.callers == 32 && p.callerWait <= 32 * wall, "\(p)")
        // Every caller's preparation (check, encoding, lock, sealing) was counted: some time each, within the run.
        #expect(p.prepare >= 32 && p.prepare <= 32 * wall, "\(p)")
        #expect(try verify(path: log).events == 32)
    }

    @Test("a group whose fsync returns before the fsync of the group written before it waits for that one: the wait shows as the acknowledgement's")
    func ackWaitShows() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try await storeWithTwoOnDisk(log, faults: faults)
        let held = FsyncGate()
        faults.before(.fsync) { held.pass() }
        let first = Task { try await store.append(answer("a", user: "u", question: 1)) }
        try await waitUntil { held.holding(0) }
        let second = Task { try await store.append(answer("b", user: "u", question: 2)) }
        // The second group's fsync returns at once, then waits for the first's, held 30 ms more.
        try await waitUntil { (try? verify(path: log).events) == 3 }
        try await Task.sleep(nanoseconds: 30_000_000)
        held.release(0)
        _ = try await (first.value, second.value)
        let p = store.groupCounts.phases
        await store.close()
        #expect(p.ackWait >= 20_000_000, "\(p)")
    }
}
