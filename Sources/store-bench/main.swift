// store-bench: the app API's rows of scripts/bench.
//
//   store-bench group LOG --tasks T --count N [--fsync-delay-us D] [--on-disk K]
//       T tasks (default 64) append N events in all (default 20000), each task
//       its share one event at a time through LedgerStore.append (each
//       durable, fsync'd, before the task's next); a new log. The events are
//       made before the clock starts. Prints
//       `events N seconds S events-per-second R groups G mean-group M largest-group L cpu-us-per-event C sealed-ahead A`
//       (G: the groups the store's commit thread wrote, each one write and one fsync;
//       C: the process's CPU time, every thread, over the timed appends, per event;
//       A: the groups written as their callers sealed them, while the group before was on disk),
//       then `overlapped O most-on-disk K depth D fsync-us F prep-us-per-event P in-flight I`
//       (O: groups taken while another group's fsync ran; K: the most at once; D: the groups
//       the store's overlap policy allowed on disk at the end; F, P, I: its estimates of an
//       fsync, of a group's preparation per event, and of the events in flight).
//       Then `gather-us G commit-wake-us W write-us X sync-wake-us Y fsync-wall-us F resume-us R cpu-share S`:
//       where a group's wall time went, µs per group (G: from the callers' resumption to the next
//       group's start; W: the commit thread's wake-up; X: its write; Y: the fsync thread's wake-up;
//       F: the fsync; R: resuming the callers), and the cores the process kept busy (CPU / wall);
//       then `ack-wait-us A caller-wait-us C append-latency-us L` (A: per group, from its fsync's
//       return to its acknowledgement, the groups written before it still on disk; C: per caller,
//       from joining the pending group to the commit thread taking it; L: one append's mean
//       latency, T × seconds ÷ N: with T tasks each waiting for its own event, the rate is T ÷ L),
//       then `prepare-us P` (per caller, from its append starting to its joining the pending group:
//       checking, encoding, the lock, sealing).
//       Then `serial-eps S overlap-eps O switches N mid-depth D mid-fsync-us F mid-prep-us-per-event P
//       mid-in-flight I make-events-ms M`: the overlap policy's throughput trial (events acknowledged a
//       second one group at a time, and overlapping; 0: not measured) and how often its choice changed
//       kind; the policy's depth and estimates half-way through the run (task 0's middle append); and
//       the wall time making the events took, before the clock started (on every core).
//       With --fsync-delay-us, every fsync first waits D µs (through the fault seam): on a
//       memory file system (/dev/shm), a disk of a steady speed. --on-disk K: at most K groups'
//       fsyncs at once (default: the store's, 8; 1 is one group on disk at a time; how many,
//       up to K, is the store's overlap policy's choice).
//   store-bench live --count N
//       One learner's live state: N events (quizzes, answers, hints, puzzles)
//       folded one at a time into a LearnerProjector, the state asked after
//       each (no re-read). Prints `events N fold-ns-per-event F state-ns-per-event S`.

import Dispatch
import Events
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ledger
import Projections
import ProgressLedger

func option(_ name: String, _ fallback: Int) -> Int {
    guard let k = CommandLine.arguments.firstIndex(of: name), k + 1 < CommandLine.arguments.count,
          let v = Int(CommandLine.arguments[k + 1]) else { return fallback }
    return v
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CPU time of the whole process so far (user + system, every thread), in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)  // Glibc imports the C enum as a Swift one; the call takes its int
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// `prefix` then `n` in decimal (what `"\(prefix)\(n)"` makes, without interpolation's cost).
func text(_ prefix: StaticString, _ n: Int) -> String {
    var digits: (UInt64, UInt64) = (0, 0)  // up to 16 digits, least significant first
    var count = 0, v = max(0, n)
    withUnsafeMutableBytes(of: &digits) { d in
        repeat {
            d[count] = UInt8(truncatingIfNeeded: 48 + v % 10)
            v /= 10
            count += 1
        } while v > 0 && count < 16
    }
    return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + count) { out in
        var k = 0
        for b in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) { out[k] = b; k += 1 }
        withUnsafeBytes(of: digits) { d in for j in stride(from: count - 1, through: 0, by: -1) { out[k] = d[j]; k += 1 } }
        return k
    }
}

/// The text of second `k` of the bench's days: `2025-10-DDTHH:MM:SSZ`.
func stamp(_ k: Int) -> String {
    let second = k % 86_400, day = 1 + (k / 86_400) % 28
    return String(unsafeUninitializedCapacity: 20) { out in
        for (j, b) in "2025-10-00T00:00:00Z".utf8.enumerated() { out[j] = b }
        func two(_ n: Int, at j: Int) {
            out[j] = UInt8(truncatingIfNeeded: 48 + n / 10)
            out[j + 1] = UInt8(truncatingIfNeeded: 48 + n % 10)
        }
        two(day, at: 8)
        two(second / 3600, at: 11)
        two((second / 60) % 60, at: 14)
        two(second % 60, at: 17)
        return 20
    }
}

/// The k-th event of a learner's day of play (valid, with its own id).
func event(_ k: Int, user: String) -> NewEvent {
    let attempt = text("a-", k / 8)
    let at = stamp(k)
    // `at` is well formed by construction; a failure would be a bug here.
    guard let timestamp = try? Timestamp(parsing: at) else { fatalError("bad timestamp \(at)") }
    let e: Event
    switch k % 8 {
    case 0: e = .quizStarted(QuizStarted(attempt: attempt, quiz: "daily", questions: 5, daily: true))
    case 6: e = .hintUsed(HintUsed(attempt: attempt, question: "q5", hint: .reveal))
    case 7: e = .quizFinished(AttemptEnded(attempt: attempt))
    default: e = .answerSelected(AnswerSelected(attempt: attempt, question: text("q", k % 8), choice: k % 3, correct: k % 3 == 0, skill: text("s", k % 4)))
    }
    return NewEvent(id: user + text("-", k), at: timestamp, user: user, event: e)
}

/// Each task's events (`tasks` tasks, `count` in all, task t the k-th events with k % tasks == t,
/// of learner `u-t`), made on every core: the same events as one thread makes, in less wall time.
func makeEvents(tasks: Int, count: Int) -> [[NewEvent]] {
    let out = UnsafeMutableBufferPointer<[NewEvent]>.allocate(capacity: tasks)
    out.initialize(repeating: [])
    defer { out.deallocate() }
    nonisolated(unsafe) let slots = out
    DispatchQueue.concurrentPerform(iterations: tasks) { t in
        let user = text("u-", t)
        slots[t] = stride(from: t, to: count, by: tasks).map { event($0, user: user) }
    }
    return Array(out)
}

let args = CommandLine.arguments
guard args.count >= 2 else {
    print("usage: store-bench group LOG [--tasks T] [--count N] | store-bench live [--count N]")
    exit(64)
}
switch args[1] {
case "group":
    guard args.count >= 3 else { exit(64) }
    let tasks = option("--tasks", 64), count = option("--count", 20_000)
    // --fsync-delay-us D: every fsync waits D µs first (on a memory file system: a disk of a
    // steady speed, so that the CPU between fsyncs shows without the disk's moods).
    let delay = option("--fsync-delay-us", 0)
    let faults = delay > 0 ? FaultInjector() : nil
    faults?.inject(.delay(delay), into: .fsync, times: Int.max)
    let store = try LedgerStore(path: args[2], create: true, faults: faults,
                                groupsOnDisk: option("--on-disk", LedgerStore.groupsOnDisk))
    // Each task's events, made before the clock starts (as plain-loop makes its lines
    // first): the row measures the store.
    let made = now()
    let events = makeEvents(tasks: tasks, count: count)
    let start = now(), cpuStart = cpuSeconds()
    // The policy's estimates half-way through (task 0's middle event), not only at the end.
    nonisolated(unsafe) var middle: GroupCounts? = nil
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (t, mine) in events.enumerated() {
            group.addTask {
                for (k, e) in mine.enumerated() {
                    if t == 0, k == mine.count / 2 { middle = store.groupCounts }
                    try await store.append(e)
                }
            }
        }
        try await group.waitForAll()
    }
    let seconds = Double(now() - start) / 1e9
    let cpu = cpuSeconds() - cpuStart
    let groups = store.groupCounts
    await store.close()
    print("events \(count) seconds \(String(format: "%.3f", seconds)) events-per-second \(Int(Double(count) / seconds))"
          + " groups \(groups.groups) mean-group \(String(format: "%.1f", groups.mean)) largest-group \(groups.largest)"
          + " cpu-us-per-event \(String(format: "%.2f", cpu / Double(count) * 1e6)) sealed-ahead \(groups.sealedAhead)"
          + " overlapped \(groups.overlapped) most-on-disk \(groups.mostOnDisk) depth \(groups.depth)"
          + " fsync-us \(String(format: "%.1f", groups.fsyncMicroseconds)) prep-us-per-event \(String(format: "%.2f", groups.preparationMicroseconds))"
          + " in-flight \(String(format: "%.1f", groups.inFlight))")
    // Where a group's wall time went, µs per group (GroupPhases).
    func perGroup(_ ns: UInt64) -> String { String(format: "%.1f", groups.groups == 0 ? 0 : Double(ns) / Double(groups.groups) / 1000) }
    let p = groups.phases
    print("gather-us \(perGroup(p.gather)) commit-wake-us \(perGroup(p.commitWake)) write-us \(perGroup(p.write))"
          + " sync-wake-us \(perGroup(p.syncWake)) fsync-wall-us \(perGroup(p.fsync)) resume-us \(perGroup(p.resume))"
          + " cpu-share \(String(format: "%.2f", cpu / seconds))"
          + " ack-wait-us \(perGroup(p.ackWait)) caller-wait-us \(String(format: "%.1f", p.callers == 0 ? 0 : Double(p.callerWait) / Double(p.callers) / 1000))"
          + " append-latency-us \(String(format: "%.1f", Double(tasks) * seconds / Double(count) * 1e6))"
          + " prepare-us \(String(format: "%.1f", p.callers == 0 ? 0 : Double(p.prepare) / Double(p.callers) / 1000))")
    // The policy's throughput trial, and its estimates half-way (`mid-`): depth, fsync, preparation, in flight.
    let m = middle
    print("serial-eps \(Int(groups.serialRate)) overlap-eps \(Int(groups.overlapRate)) switches \(groups.switches)"
          + " mid-depth \(m?.depth ?? 0) mid-fsync-us \(String(format: "%.1f", m?.fsyncMicroseconds ?? 0))"
          + " mid-prep-us-per-event \(String(format: "%.2f", m?.preparationMicroseconds ?? 0)) mid-in-flight \(String(format: "%.1f", m?.inFlight ?? 0))"
          + " make-events-ms \(String(format: "%.1f", Double(start - made) / 1e6))")
case "live":
    let count = option("--count", 5_000)
    var envelopes: [Envelope] = []
    envelopes.reserveCapacity(count)
    for k in 0..<count { envelopes.append(event(k, user: "u").sealed(seq: k + 1, id: "u-\(k)", prev: Envelope.genesis)) }
    var fold = LearnerProjector(options: StateOptions(user: "u"))
    var t0 = now()
    for e in envelopes { fold.apply(e) }
    let foldNs = Double(now() - t0) / Double(count)
    var live = LearnerProjector(options: StateOptions(user: "u"))
    var answered = 0
    t0 = now()
    for e in envelopes {
        live.apply(e)
        answered &+= live.state().dailyQuiz.answered
    }
    let stateNs = Double(now() - t0) / Double(count)
    print("events \(count) fold-ns-per-event \(Int(foldNs)) state-ns-per-event \(Int(stateNs)) (check \(answered))")
default:
    exit(64)
}
