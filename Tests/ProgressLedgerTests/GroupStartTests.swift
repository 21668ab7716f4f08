@testable import ProgressLedger
import Testing

/// The rule of when the store's next group starts, step by step (no threads).
/// Each step's answer is taken before it is expected (the expectation macros
/// take no mutating calls).
@Suite("GroupStart: when the next group starts")
struct GroupStartTests {
    @Test("an append finding the store idle starts a group at once; while it is written, appends wait")
    func idleStartsAtOnce() {
        var start = GroupStart(slots: 2)
        let first = start.arrived()
        #expect(first && start.writing)
        let second = start.arrived(), third = start.arrived()
        #expect(!second && !third)
    }

    @Test("a group written while callers came: the next one is taken at once, its fsync beside the first's")
    func overlapsTheFsync() {
        var start = GroupStart(slots: 2)
        _ = start.arrived()
        let next = start.groupWritten(syncs: true, waiting: 1)
        #expect(next && start.syncing == 1 && start.writing)
        // Two groups on disk: the third waits for an fsync to return, however many callers wait.
        let third = start.groupWritten(syncs: true, waiting: 1)
        let arriving = start.arrived()
        #expect(!third && !arriving && start.syncing == 2 && !start.writing)
        let freed = start.synced(waiting: 1, resumed: 1).start
        #expect(freed && start.syncing == 1 && start.writing)
    }

    @Test("one slot: one group on disk at a time, the next taken when its fsync returns")
    func oneAtATime() {
        var start = GroupStart(slots: 1)
        _ = start.arrived()
        let next = start.groupWritten(syncs: true, waiting: 1)
        let arriving = start.arrived()
        #expect(!next && !arriving)
        let freed = start.synced(waiting: 1).start
        #expect(freed)
    }

    @Test("nothing waiting: an fsync returning starts nothing, and the next append starts a group at once")
    func quietThenAppend() {
        var start = GroupStart(slots: 2)
        _ = start.arrived()
        let next = start.groupWritten(syncs: true, waiting: 0)
        let returned = start.synced(waiting: 0).start
        #expect(!next && !returned && start.syncing == 0 && !start.writing)
        let append = start.arrived()
        #expect(append)
    }

    @Test("a group with nothing to fsync takes no slot; the commit thread finding nothing is idle again")
    func noLines() {
        var start = GroupStart(slots: 1)
        _ = start.arrived()
        let next = start.groupWritten(syncs: false, waiting: 1)
        #expect(next && start.syncing == 0)
        start.nothingWaits()
        #expect(!start.writing)
        let again = start.arrived()
        #expect(again)
    }

    @Test("one at a time: after an fsync, the next group waits until the callers resumed are back, with those already waiting")
    func gathersTheCallersResumed() {
        var start = GroupStart(slots: 2, depth: 1)
        _ = start.arrived()
        _ = start.groupWritten(syncs: true, waiting: 1)
        // Three callers resumed, one already waiting: the next group waits for four.
        let (now, round) = start.synced(waiting: 1, resumed: 3)
        #expect(!now && round == 1 && start.gathering == GroupStart.Gathering(target: 4, round: 1))
        let second = start.arrived(waiting: 2), third = start.arrived(waiting: 3)
        #expect(!second && !third)
        let fourth = start.arrived(waiting: 4)
        #expect(fourth && start.writing && start.gathering == nil)
        // That round's marker, coming late, changes nothing.
        let late = start.roundPassed(1, waiting: 4)
        #expect(!late)
    }

    @Test("one at a time: the round's marker starts the group with whoever is back; with nobody, the store is idle")
    func markerEndsTheRound() {
        var start = GroupStart(slots: 1)
        _ = start.arrived()
        _ = start.groupWritten(syncs: true, waiting: 0)
        let (_, round) = start.synced(waiting: 0, resumed: 5)
        let back = start.arrived(waiting: 2)
        let passed = start.roundPassed(round ?? 0, waiting: 2)
        #expect(!back && passed && start.writing)
        _ = start.groupWritten(syncs: true, waiting: 0)
        let (_, next) = start.synced(waiting: 0, resumed: 2)
        let nobody = start.roundPassed(next ?? 0, waiting: 0)
        #expect(next == 2 && !nobody && !start.writing && start.gathering == nil)
        let append = start.arrived(waiting: 1)
        #expect(append)
    }

    @Test("one at a time: a group's worth of events waiting starts the group without waiting for the rest")
    func fullGroupStarts() {
        var start = GroupStart(slots: 1)
        _ = start.arrived()
        _ = start.groupWritten(syncs: true, waiting: 0)
        _ = start.synced(waiting: 0, resumed: 64)
        let full = start.arrived(waiting: 3, full: true)
        #expect(full)
    }

    @Test("overlapping (depth 2): an fsync returning with callers waiting starts a group at once, no gathering")
    func overlappingDoesNotGather() {
        var start = GroupStart(slots: 8, depth: 2)
        _ = start.arrived()
        _ = start.groupWritten(syncs: true, waiting: 0)
        let (now, round) = start.synced(waiting: 1, resumed: 3)
        #expect(now && round == nil && start.gathering == nil)
    }

    @Test("overlapping, a share of 32: with a group on disk, a group starts when 32 callers wait, or when an fsync returns")
    func overlappingWaitsForAShare() {
        var start = GroupStart(slots: 8, depth: 2)
        start.share = 32
        let first = start.arrived(waiting: 1)  // nothing on disk: at once
        #expect(first)
        let onDisk = start.groupWritten(syncs: true, waiting: 31)  // one on disk, 31 < 32 wait
        let thirtyFirst = start.arrived(waiting: 31)
        #expect(!onDisk && !thirtyFirst && start.syncing == 1)
        let thirtySecond = start.arrived(waiting: 32)  // a share: the second slot
        #expect(thirtySecond)
        let full = start.groupWritten(syncs: true, waiting: 40)  // two on disk: depth 2 is full
        #expect(!full && start.syncing == 2)
        let (freed, _) = start.synced(waiting: 3)  // an fsync returned: whoever waits goes
        #expect(freed)
        _ = start.groupWritten(syncs: true, waiting: 0)
        let (_, _) = start.synced(waiting: 0)
        let (_, _) = start.synced(waiting: 0)
        let alone = start.arrived(waiting: 1)  // nothing on disk again: at once
        #expect(alone && start.syncing == 0)
        // A group's worth of events goes without its share.
        _ = start.groupWritten(syncs: true, waiting: 0)
        let big = start.arrived(waiting: 2, full: true)
        #expect(big)
    }
}
