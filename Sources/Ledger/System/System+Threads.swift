// Threads and clocks for a server: a worker thread per handler (blocking in
// fsync must not hold up the others) and a monotonic clock for deadlines.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread running one closure, to be joined (`pthread_create`, `pthread_join`).
package final class SystemThread: @unchecked Sendable {
    #if canImport(Darwin)
    private var thread: pthread_t?
    #else
    private var thread = pthread_t()
    #endif
    private var joined = false

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private init() {}

    /// Starts a thread running `body`.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> SystemThread {
        let handle = SystemThread()
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        let status = pthread_create(&handle.thread, nil, { context in
            #if canImport(Darwin)
            let raw = context
            #else
            guard let raw = context else { return nil }
            #endif
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw SystemCallError(call: "pthread_create", errno: Errno(rawValue: status))
        }
        return handle
    }

    /// Waits for the thread to end (once; later calls return at once).
    package func join() {
        guard !joined else { return }
        joined = true
        #if canImport(Darwin)
        if let thread { pthread_join(thread, nil) }
        #else
        pthread_join(thread, nil)
        #endif
    }
}

extension System {
    /// Nanoseconds of a clock that never goes back (`CLOCK_MONOTONIC`): for deadlines and durations.
    package static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Milliseconds since 1970-01-01 UTC (`CLOCK_REALTIME`): for the time of an access line.
    package static func wallClockMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int(now.tv_sec) &* 1000 &+ Int(now.tv_nsec) / 1_000_000
    }

    /// Seconds since 1970-01-01 UTC (`time`): for a token's `exp`.
    package static func secondsSinceEpoch() -> Int { now() }
}
