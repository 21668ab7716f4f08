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
        let next = start.groupWritten(syncs: true, waiting: true)
        #expect(next && start.syncing == 1 && start.writing)
        // Two groups on disk: the third waits for an fsync to return, however many callers wait.
        let third = start.groupWritten(syncs: true, waiting: true)
        let arriving = start.arrived()
        #expect(!third && !arriving && start.syncing == 2 && !start.writing)
        let freed = start.synced(waiting: true)
        #expect(freed && start.syncing == 1 && start.writing)
    }

    @Test("one slot: one group on disk at a time, the next taken when its fsync returns")
    func oneAtATime() {
        var start = GroupStart(slots: 1)
        _ = start.arrived()
        let next = start.groupWritten(syncs: true, waiting: true)
        let arriving = start.arrived()
        #expect(!next && !arriving)
        let freed = start.synced(waiting: true)
        #expect(freed)
    }

    @Test("nothing waiting: an fsync returning starts nothing, and the next append starts a group at once")
    func quietThenAppend() {
        var start = GroupStart(slots: 2)
        _ = start.arrived()
        let next = start.groupWritten(syncs: true, waiting: false)
        let returned = start.synced(waiting: false)
        #expect(!next && !returned && start.syncing == 0 && !start.writing)
        let append = start.arrived()
        #expect(append)
    }

    @Test("a group with nothing to fsync takes no slot; the commit thread finding nothing is idle again")
    func noLines() {
        var start = GroupStart(slots: 1)
        _ = start.arrived()
        let next = start.groupWritten(syncs: false, waiting: true)
        #expect(next && start.syncing == 0)
        start.nothingWaits()
        #expect(!start.writing)
        let again = start.arrived()
        #expect(again)
    }
}
