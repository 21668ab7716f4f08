import Events
import Foundation
import Ledger
@testable import ProgressLedger
import Testing

/// The overlap rule with numbers worked by hand (no clock, no threads): an
/// estimate moves a quarter of the way to each sample, a sample counting for
/// at most four times the estimate.
@Suite("OverlapPolicy: how many groups on disk, from the times measured")
struct OverlapPolicyTests {
    /// A policy (at most `most` on disk) that measured a group of 64 events prepared in 320 µs, 64 in flight.
    static func sixtyFourAtFiveMicroseconds(most: Int = 8) -> OverlapPolicy {
        var policy = OverlapPolicy(most: most)
        policy.prepared(nanoseconds: 320_000, events: 64, inFlight: 64)
        return policy
    }

    @Test("before anything is measured: two groups on disk (the store before the policy); at most `most`")
    func unmeasured() {
        let policy = OverlapPolicy(most: 8)
        #expect(policy.depth == 2 && policy.ratio == nil)
        #expect(OverlapPolicy(most: 1).depth == 1)
    }

    @Test("an fsync cheaper than preparing the events in flight: one group at a time")
    func fastDisk() {
        // 64 events prepared in 320 µs (5 µs each), 64 in flight: 320 µs a group; an fsync of 100 µs.
        var policy = Self.sixtyFourAtFiveMicroseconds()
        policy.synced(nanoseconds: 100_000)
        #expect(policy.ratio == 100_000.0 / 320_000.0)  // 0.3125
        #expect(policy.depth == 1)
    }

    @Test("a disk turning slow is followed within a few fsyncs, one slow fsync alone does not flip it")
    func slowDiskFollowed() {
        var policy = Self.sixtyFourAtFiveMicroseconds(most: 8)
        policy.synced(nanoseconds: 100_000)
        // 2 ms fsyncs from now: 100 µs → 175 (the sample counts as 400) → 306.25 → 535.9375 → 901.953125 µs.
        var depths: [Int] = []
        for _ in 0..<4 {
            policy.synced(nanoseconds: 2_000_000)
            depths.append(policy.depth)
        }
        // Ratios 0.547, 0.957 (below 1.5: still one at a time), 1.675 → 2 on disk, 2.819 → 3.
        #expect(depths == [1, 1, 2, 3])
        #expect(policy.fsyncNanoseconds == 901_953.125)
    }

    @Test("overlapping stays until the ratio falls below 0.75 (a band: no flapping at the edge); never more than `most`")
    func bandAndCap() {
        var policy = Self.sixtyFourAtFiveMicroseconds(most: 4)
        // Ratio 0.9375: from the first choice (two on disk) it stays overlapping...
        policy.synced(nanoseconds: 300_000)
        #expect(policy.depth == 2)
        // ... and from one at a time it stays one at a time.
        var serial = Self.sixtyFourAtFiveMicroseconds(most: 4)
        serial.synced(nanoseconds: 100_000)
        #expect(serial.depth == 1)
        for _ in 0..<20 { serial.synced(nanoseconds: 300_000) }
        #expect(serial.depth == 1)
        // A very slow disk: r + 1 on disk, capped at `most`.
        var slow = Self.sixtyFourAtFiveMicroseconds(most: 4)
        slow.synced(nanoseconds: 20_000_000)
        #expect(slow.depth == 4)
        // Then 100 µs fsyncs: 20 ms comes down a quarter at a time, and below 0.75 (240 µs) it is one at a time.
        var steps = 0
        while slow.depth > 1, steps < 100 {
            slow.synced(nanoseconds: 100_000)
            steps += 1
        }
        #expect(slow.depth == 1 && (slow.fsyncNanoseconds ?? 0) < 240_000 && steps < 30)
    }

    /// A policy whose ratio chooses overlapping, under `sureAbove`: 300 µs fsyncs, 5 µs an event, 16 in flight (ratio 3.75: 4 on disk).
    static func ratioOverlapping() -> OverlapPolicy {
        var policy = OverlapPolicy(most: 8)
        policy.prepared(nanoseconds: 80_000, events: 16, inFlight: 16)
        policy.synced(nanoseconds: 300_000)
        return policy
    }

    /// `groups` groups of `events` events acknowledged `every` ns from `clock`, written in the
    /// policy's epoch now (`start`: first an acknowledgement at `clock`, which starts a window
    /// after the epoch changed; a window closed starts the next at its last acknowledgement).
    static func acks(_ policy: inout OverlapPolicy, clock: inout UInt64, start: Bool = false, groups: Int = 16, events: Int, every: UInt64) {
        let epoch = policy.epoch
        if start { policy.acknowledged(events: events, written: epoch, now: clock) }
        for _ in 0..<groups {
            clock += every
            policy.acknowledged(events: events, written: epoch, now: clock)
        }
    }

    @Test("the throughput trial: one group at a time first; an overlapping probe within a sixteenth of it keeps it (the windows kept double), a faster one wins")
    func trialOneAtATimeFirst() {
        var policy = Self.ratioOverlapping()
        #expect(policy.depth == 4 && policy.epoch == 0 && policy.trialOverlaps == nil)
        var clock: UInt64 = 1_000_000_000
        // The first acknowledgement: the trial holds one at a time (a new epoch; the group, written before, counts nowhere).
        policy.acknowledged(events: 16, written: 0, now: clock)
        #expect(policy.depth == 1 && policy.epoch == 1 && policy.trialOverlaps == false)
        // The warm-up window (16 groups, 8 ms ≥ 16 fsyncs of 300 µs): not counted.
        Self.acks(&policy, clock: &clock, start: true, events: 64, every: 500_000)
        #expect(policy.serialRate == nil && !policy.probing)
        // One at a time: 16 groups of 64, one every 500 µs: 128,000 events/s. Then overlapping is probed (a new epoch).
        Self.acks(&policy, clock: &clock, events: 64, every: 500_000)
        #expect(policy.serialRate == 128_000 && policy.probing && policy.depth == 4 && policy.epoch == 2)
        // Groups written before the change count nowhere.
        clock += 100_000
        policy.acknowledged(events: 1_000, written: 1, now: clock)
        // Overlapping: 24 events every 400 µs, 60,000 events/s: one at a time is confirmed, two windows kept.
        Self.acks(&policy, clock: &clock, start: true, events: 24, every: 400_000)
        #expect(policy.overlapRate == 60_000 && !policy.probing && policy.depth == 1 && policy.epoch == 3)
        var depths: [Int] = []
        for k in 0..<2 {
            Self.acks(&policy, clock: &clock, start: k == 0, events: 64, every: 500_000)
            depths.append(policy.depth)
        }
        #expect(depths == [1, 4], "\(depths)")
        // Overlapping at 132,000 events/s (66 every 500 µs): faster, but within a sixteenth of 128,000 (136,000): kept, four windows.
        Self.acks(&policy, clock: &clock, start: true, events: 66, every: 500_000)
        #expect(policy.overlapRate == 132_000 && policy.trialOverlaps == false && policy.depth == 1 && policy.epoch == 5)
        depths = []
        for k in 0..<4 {
            Self.acks(&policy, clock: &clock, start: k == 0, events: 64, every: 500_000)
            depths.append(policy.depth)
        }
        #expect(depths == [1, 1, 1, 4], "\(depths)")
        // Overlapping at 150,000 events/s (75 every 500 µs): it wins, and stays (no new epoch).
        Self.acks(&policy, clock: &clock, start: true, events: 75, every: 500_000)
        #expect(policy.overlapRate == 150_000 && policy.trialOverlaps == true && !policy.probing)
        #expect(policy.depth == 4 && policy.epoch == 6 && policy.switches == 6)
    }

    @Test("the throughput trial keeps the kind held unless the other is faster by more than a sixteenth; a window needs its groups and 16 fsyncs of time")
    func trialMargin() {
        var policy = Self.ratioOverlapping()
        var clock: UInt64 = 5_000_000_000
        policy.acknowledged(events: 16, written: 0, now: clock)
        Self.acks(&policy, clock: &clock, start: true, events: 64, every: 500_000)
        // 16 groups in 1.6 ms: shorter than 16 fsyncs (4.8 ms), the window stays open.
        Self.acks(&policy, clock: &clock, events: 16, every: 100_000)
        #expect(policy.serialRate == nil && policy.depth == 1)
        // 32 more (4.8 ms since its start): 48 groups of 16 in 4.8 ms, 160,000 events/s.
        Self.acks(&policy, clock: &clock, groups: 32, events: 16, every: 100_000)
        #expect(policy.serialRate == 160_000 && policy.depth == 4)
        // Overlapping: 168,000 events/s (84 every 500 µs), within a sixteenth (170,000): one at a time is kept.
        Self.acks(&policy, clock: &clock, start: true, events: 84, every: 500_000)
        #expect(policy.overlapRate == 168_000 && policy.trialOverlaps == false)
        #expect(policy.depth == 1 && policy.epoch == 3)
        // With one slot there is nothing to try.
        var one = OverlapPolicy(most: 1)
        one.prepared(nanoseconds: 80_000, events: 16, inFlight: 16)
        one.synced(nanoseconds: 300_000)
        for _ in 0..<3 { Self.acks(&one, clock: &clock, start: true, events: 16, every: 1_000_000) }
        #expect(one.depth == 1 && one.serialRate == nil && one.epoch == 0 && one.trialOverlaps == nil)
    }

    @Test("a ratio of 4 or more (an fsync of 400 µs over 80 µs of preparation in flight): overlapping without a trial; below, the trial starts from overlapping")
    func sureRatioNoTrial() {
        var policy = OverlapPolicy(most: 8)
        policy.prepared(nanoseconds: 80_000, events: 16, inFlight: 16)
        policy.synced(nanoseconds: 400_000)
        #expect(policy.ratio == 5 && policy.depth == 6)
        var clock: UInt64 = 9_000_000_000
        for _ in 0..<4 { Self.acks(&policy, clock: &clock, start: true, events: 64, every: 1_000_000) }
        #expect(policy.depth == 6 && policy.epoch == 0 && policy.trialOverlaps == nil && policy.overlapRate == nil)
        // 250 µs fsyncs from now: the estimate comes down a quarter at a time, below 320 µs (ratio 4) the trial starts.
        while (policy.ratio ?? 0) >= 4 { policy.synced(nanoseconds: 250_000) }
        #expect(policy.depth == 4)
        Self.acks(&policy, clock: &clock, start: true, events: 32, every: 500_000)
        #expect(policy.trialOverlaps == true)
        Self.acks(&policy, clock: &clock, events: 32, every: 500_000)
        #expect(policy.overlapRate == 64_000 && policy.probing && policy.depth == 1)
    }

    @Test("preparation and events in flight move the same way: more callers, a longer group, one at a time")
    func moreCallersLongerGroup() {
        var policy = OverlapPolicy(most: 8)
        // 400 µs fsyncs, 5 µs an event, 16 in flight (80 µs a group): ratio 5, so 5 + 1 = 6 on disk (under the cap of 8).
        policy.prepared(nanoseconds: 80_000, events: 16, inFlight: 16)
        policy.synced(nanoseconds: 400_000)
        #expect(policy.depth == 6)
    }
}

/// The store follows the policy: observed through its group counts, with the
/// fault seam making an `fsync` much slower than a group's preparation, or a
/// group's write much slower than an `fsync` (50 ms either way, far beyond
/// what this machine's disk and CPU vary by: no assertion on a time).
@Suite("LedgerStore: the overlap follows the fsync time measured")
struct StoreOverlapTests {
    /// `tasks` tasks appending `each` single events (after one caller's `warmUp` appends, one at a time).
    func run(_ store: LedgerStore, tasks: Int, each: Int, warmUp: Int) async throws -> [AppendResult] {
        var results: [AppendResult] = []
        for k in 0..<warmUp { results.append(try await store.append(answer("w-\(k)", user: "u-w", question: k))) }
        results += try await withThrowingTaskGroup(of: [AppendResult].self) { group in
            for t in 0..<tasks {
                group.addTask {
                    var mine: [AppendResult] = []
                    for k in 0..<each { mine.append(try await store.append(answer("t\(t)-\(k)", user: "u-\(t % 3)", question: k))) }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return results
    }

    @Test("an fsync slower than a group's preparation (50 ms through the fault seam): groups overlap on disk")
    func slowFsyncOverlaps() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        faults.inject(.delay(50_000), into: .fsync, times: Int.max)
        let store = try LedgerStore(path: log, create: true, faults: faults)
        let results = try await run(store, tasks: 16, each: 6, warmUp: 3)
        let counts = store.groupCounts
        await store.close()
        // The warm-up's groups measured the fsync (one caller: nothing to overlap); then the policy chose overlap.
        #expect(counts.depth >= 2, "\(counts)")
        #expect(counts.overlapped > 0 && counts.mostOnDisk >= 2, "\(counts)")
        #expect(counts.events == 3 + 16 * 6)
        #expect(Set(results.map(\.seq)) == Set(1...(3 + 16 * 6)))
        #expect(try verify(path: log).events == 3 + 16 * 6)
    }

    @Test("a group's preparation slower than an fsync (its write delayed 50 ms): one group at a time, gathering the callers waiting")
    func fastFsyncOneAtATime() async throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let log = dir.file("log")
        let faults = FaultInjector()
        let store = try LedgerStore(path: log, create: true, faults: faults)
        faults.inject(.delay(50_000), into: .write, times: Int.max)
        let results = try await run(store, tasks: 16, each: 6, warmUp: 3)
        let counts = store.groupCounts
        await store.close()
        #expect(counts.depth == 1, "\(counts)")
        #expect(counts.overlapped == 0 && counts.mostOnDisk == 1, "\(counts)")
        // Groups grow to the callers waiting (not one caller, then the rest, in turn).
        #expect(counts.largest > 1 && counts.groups < counts.events, "\(counts)")
        #expect(counts.events == 3 + 16 * 6)
        #expect(Set(results.map(\.seq)) == Set(1...(3 + 16 * 6)))
        #expect(try verify(path: log).events == 3 + 16 * 6)
    }
}
