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
    static func acks(_ policy: inout OverlapPolicy, clock: inout UInt64, start: Bool = false, groups: Int = 32, events: Int, every: UInt64) {
        let epoch = policy.epoch
        if start { policy.acknowledged(events: events, written: epoch, now: clock) }
        for _ in 0..<groups {
            clock += every
            policy.acknowledged(events: events, written: epoch, now: clock)
        }
    }

    @Test("the throughput trial: one group at a time acknowledging more events a second wins over the ratio's overlap, and is kept against a probe within an eighth of it; each probe that confirms it doubles the windows kept")
    func trialChoosesOneAtATime() {
        var policy = Self.ratioOverlapping()
        #expect(policy.depth == 4 && policy.epoch == 0)
        var clock: UInt64 = 1_000_000_000
        // The warm-up window: not counted.
        Self.acks(&policy, clock: &clock, start: true, events: 16, every: 250_000)
        #expect(policy.overlapRate == nil && policy.depth == 4 && !policy.probing)
        // Overlapping: 32 groups of 16 events, one every 250 µs (8 ms ≥ 16 fsyncs of 300 µs): 64,000 events/s.
        Self.acks(&policy, clock: &clock, events: 16, every: 250_000)
        #expect(policy.overlapRate == 64_000 && policy.probing)
        // The probe: one at a time, a new epoch.
        #expect(policy.depth == 1 && policy.epoch == 1)
        // Groups written before the change count nowhere.
        clock += 100_000
        policy.acknowledged(events: 1_000, written: 0, now: clock)
        // One at a time: 32 groups of 64 every 500 µs (16 ms): 128,000 events/s, more than 64,000 by more than an eighth.
        Self.acks(&policy, clock: &clock, start: true, events: 64, every: 500_000)
        #expect(policy.serialRate == 128_000 && policy.trialOverlaps == false && !policy.probing)
        #expect(policy.depth == 1 && policy.epoch == 1)
        // A changed choice is kept one window, then overlapping is probed again: 132,000 events/s (33 every
        // 250 µs), faster than one at a time but within an eighth (144,000): confirmed, two windows kept.
        var depths: [Int] = []
        Self.acks(&policy, clock: &clock, events: 64, every: 500_000)
        depths.append(policy.depth)
        Self.acks(&policy, clock: &clock, start: true, events: 33, every: 250_000)
        depths.append(policy.depth)
        for _ in 0..<2 {
            Self.acks(&policy, clock: &clock, start: depths.count == 2, events: 64, every: 500_000)
            depths.append(policy.depth)
        }
        #expect(depths == [4, 1, 1, 4], "\(depths)")
        #expect(policy.probing && policy.epoch == 4 && policy.serialRate == 128_000 && policy.overlapRate == 132_000)
        // Overlapping now acknowledges 150,000 events/s (30 every 200 µs): it wins, and stays (no new epoch).
        Self.acks(&policy, clock: &clock, start: true, events: 30, every: 200_000)
        #expect(policy.overlapRate == 150_000 && policy.trialOverlaps == true && !policy.probing)
        #expect(policy.depth == 4 && policy.epoch == 4 && policy.switches == 4)
    }

    @Test("the throughput trial keeps the ratio's choice unless the other kind is faster by more than an eighth; a window needs its groups and 16 fsyncs of time")
    func trialMargin() {
        var policy = Self.ratioOverlapping()
        var clock: UInt64 = 5_000_000_000
        Self.acks(&policy, clock: &clock, start: true, events: 16, every: 250_000)
        // 32 groups in 3.2 ms: shorter than 16 fsyncs (4.8 ms), the window stays open.
        Self.acks(&policy, clock: &clock, events: 16, every: 100_000)
        #expect(policy.overlapRate == nil && policy.depth == 4)
        // 16 more (4.8 ms since its start): 48 groups of 16 in 4.8 ms, 160,000 events/s (the rest count nowhere: a new epoch).
        Self.acks(&policy, clock: &clock, events: 16, every: 100_000)
        #expect(policy.overlapRate == 160_000 && policy.depth == 1)
        // One at a time: 168,000 events/s (42 every 250 µs), within an eighth (180,000): the ratio's overlap is kept.
        Self.acks(&policy, clock: &clock, start: true, events: 42, every: 250_000)
        #expect(policy.serialRate == 168_000 && policy.trialOverlaps == true)
        #expect(policy.depth == 4 && policy.epoch == 2)
        // With one slot there is nothing to try.
        var one = OverlapPolicy(most: 1)
        one.prepared(nanoseconds: 80_000, events: 16, inFlight: 16)
        one.synced(nanoseconds: 300_000)
        for _ in 0..<3 { Self.acks(&one, clock: &clock, start: true, events: 16, every: 1_000_000) }
        #expect(one.depth == 1 && one.serialRate == nil && one.epoch == 0)
    }

    @Test("a ratio of 4 or more (an fsync of 400 µs over 80 µs of preparation in flight): overlapping without a trial; below, the trial starts again")
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
        Self.acks(&policy, clock: &clock, start: true, events: 16, every: 250_000)
        Self.acks(&policy, clock: &clock, events: 16, every: 250_000)
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
