@testable import ProgressLedger
import Testing

/// The rule of when the store's next group starts, step by step (no threads).
/// Each step's answer is taken before it is expected (the expectation macros
/// take no mutating calls).
@Suite("GroupStart: when the next group starts")
struct GroupStartTests {
    @Test("an append finding the store idle starts a group at once; while it is written, appends wait")
    func idleStartsAtOnce() {
        var start = GroupStart()
        let first = start.arrived(waiting: 1)
        #expect(first && start.phase == .writing)
        let second = start.arrived(waiting: 1), third = start.arrived(waiting: 2)
        #expect(!second && !third)
    }

    @Test("after a group, the next one starts when as many callers wait as it had")
    func gathersTheResumedCallers() throws {
        var start = GroupStart()
        _ = start.arrived(waiting: 1)
        let round = try #require(start.groupWritten(callers: 3, waiting: 0) as Int?)
        #expect(start.phase == .gathering(target: 3, round: round))
        let one = start.arrived(waiting: 1), two = start.arrived(waiting: 2)
        #expect(!one && !two)
        let three = start.arrived(waiting: 3)
        #expect(three && start.phase == .writing)
        // The round's marker comes later: it changes nothing.
        let late = start.roundPassed(round, waiting: 0)
        #expect(!late && start.phase == .writing)
    }

    @Test("a lone caller's next append fills its group of one: it starts at once")
    func loneCaller() {
        var start = GroupStart()
        _ = start.arrived(waiting: 1)
        let round = start.groupWritten(callers: 1, waiting: 0)
        let again = start.arrived(waiting: 1)
        #expect(round != nil && again)
    }

    @Test("when the round passes, what waits is written; with nothing waiting the store is idle and the next append starts at once")
    func roundPasses() throws {
        var start = GroupStart()
        _ = start.arrived(waiting: 1)
        let first = try #require(start.groupWritten(callers: 4, waiting: 0) as Int?)
        let early = start.arrived(waiting: 1)
        let passed = start.roundPassed(first, waiting: 1)
        #expect(!early && passed && start.phase == .writing)
        let second = try #require(start.groupWritten(callers: 1, waiting: 0) as Int?)
        #expect(second != first)
        // A marker of an earlier round changes nothing.
        let stale = start.roundPassed(first, waiting: 0)
        #expect(!stale && start.phase == .gathering(target: 1, round: second))
        let quiet = start.roundPassed(second, waiting: 0)
        #expect(!quiet && start.phase == .idle)
        let next = start.arrived(waiting: 1)
        #expect(next)
    }

    @Test("callers already waiting when a group is written count too: two halves taking turns merge into one group")
    func halvesMerge() throws {
        var start = GroupStart()
        _ = start.arrived(waiting: 1)
        // A group of 32 written while the other 32 waited: the next group waits for all 64.
        let round = try #require(start.groupWritten(callers: 32, waiting: 32) as Int?)
        #expect(start.phase == .gathering(target: 64, round: round))
        let half = start.arrived(waiting: 33)
        let all = start.arrived(waiting: 64)
        #expect(!half && all)
    }

    @Test("a group's worth of events waiting is written at once")
    func fullGroup() {
        var start = GroupStart()
        _ = start.arrived(waiting: 1)
        let written = start.groupWritten(callers: 2, waiting: 5000, full: true)
        #expect(written == nil && start.phase == .writing)
        start.nothingWaits()
        _ = start.arrived(waiting: 1)
        _ = start.groupWritten(callers: 100, waiting: 0)
        let full = start.arrived(waiting: 3, full: true)
        #expect(full)
    }

    @Test("the commit thread finding nothing to write leaves the store idle")
    func nothingWaits() {
        var start = GroupStart()
        _ = start.arrived(waiting: 1)
        start.nothingWaits()
        let next = start.arrived(waiting: 1)
        #expect(next)
    }
}
