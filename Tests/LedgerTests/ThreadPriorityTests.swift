import Dispatch
import Events
import Foundation
import Testing
@testable import Ledger
#if canImport(Glibc)
import Glibc
#endif

/// A reader's workers never outrank its ordered threads (the calling
/// thread's chain and ids, the report's fold thread), the read's critical
/// path, and are not pushed below ordinary work either. On Linux that rests
/// on libdispatch's nice levels for the QoS: checked here, so that a
/// libdispatch that changes them is noticed.
@Suite("Workers never outrank the ordered threads")
struct ThreadPriorityTests {
    @Test("the workers' blocks run at the calling thread's nice level or above it (lower priority), at or above the fold queue's, and above background's priority")
    func workersBelow() {
        #if os(Linux)
        let caller = Self.level()
        let worker = Self.level(on: DispatchQueue.global(qos: KeepingPipeline<FoldEvents>.workerQoS))
        let fold = Self.level(on: DispatchQueue(label: "fold", qos: KeptFoldThread<FoldEvent.View>.qos))
        let background = Self.level(on: DispatchQueue.global(qos: .background))
        #expect(worker >= caller, "worker \(worker), calling thread \(caller)")
        #expect(worker >= fold, "worker \(worker), fold queue \(fold)")
        #expect(worker < background, "worker \(worker), background \(background)")
        #else
        #expect(KeepingPipeline<FoldEvents>.workerQoS == .userInitiated)
        #endif
    }

    #if os(Linux)
    /// The calling thread's nice level (on Linux a thread's own).
    static func level() -> Int32 {
        errno = 0
        let level = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return errno == 0 ? level : Int32.min
    }

    /// The nice level of the thread that runs a block on `queue`.
    static func level(on queue: DispatchQueue) -> Int32 {
        let group = DispatchGroup()
        let box = LevelBox()
        queue.async(group: group) { box.set(level()) }
        group.wait()
        return box.get()
    }
    #endif
}

private final class LevelBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Int32.min
    func set(_ v: Int32) { lock.lock(); value = v; lock.unlock() }
    func get() -> Int32 { lock.lock(); defer { lock.unlock() }; return value }
}
