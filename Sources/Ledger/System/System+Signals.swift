// A server's end on SIGTERM and SIGINT: a C handler installed before
// `onStop` returns writes the signal's number to a pipe (the one thing it
// does: `write` is async-signal-safe), and a thread of its own reads the pipe
// and calls the Swift handler, as ordinary code.
//
// Not a Dispatch signal source: on Linux libdispatch installs its own
// handler only when its manager thread gets to register the source, after
// `resume()` returned. A SIGTERM sent in between (right after the server
// printed its address) found the signal ignored, and was lost: the server
// never stopped (issue 31).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals a server stops on.
package enum StopSignal: Sendable, CaseIterable {
    /// `SIGTERM`: what a service manager sends.
    case terminate
    /// `SIGINT`: Ctrl-C.
    case interrupt

    var number: CInt {
        switch self {
        case .terminate: SIGTERM
        case .interrupt: SIGINT
        }
    }

    /// `SIGTERM` or `SIGINT`.
    package var name: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        }
    }
}

/// Keeps the handlers of ``System/onStop(_:)`` installed while it lives; once
/// it is gone the signals are ignored (a stop already under way finishes).
package final class StopSignalHandlers: @unchecked Sendable {
    private let pipe: (read: CInt, write: CInt)
    private let thread: SystemThread

    fileprivate init(pipe: (read: CInt, write: CInt), thread: SystemThread) {
        self.pipe = pipe; self.thread = thread
    }

    deinit {
        for signal in StopSignal.allCases { ignoreSignal(signal.number) }
        var end: UInt8 = 0   // not a signal number: the thread's cue to end
        _ = withUnsafeBytes(of: &end) { try? System().writeAll(pipe.write, $0) }
        thread.join()
        stopSignalPipe = -1
        System().close(pipe.read)
        System().close(pipe.write)
    }
}

extension System {
    /// Calls `handler` (on a thread of its own) each time the process
    /// receives `SIGTERM` or `SIGINT`, instead of ending it; keep the result
    /// alive. The handlers are installed when this returns: a signal sent
    /// from then on is never lost. One at a time in a process.
    package static func onStop(_ handler: @escaping @Sendable (StopSignal) -> Void) throws(SystemCallError) -> StopSignalHandlers {
        let system = System()
        let pipe = try system.makePipe()
        let thread: SystemThread
        do {
            thread = try SystemThread.start {
                var byte: UInt8 = 0
                while true {
                    _ = try? system.poll([PollEntry(fd: pipe.read, read: true, write: false)], timeout: -1)
                    guard let n = try? withUnsafeMutableBytes(of: &byte, { (b) throws(SystemCallError) in try system.readAvailable(pipe.read, into: b) }),
                          n == 1 else { continue }
                    guard let signal = StopSignal.allCases.first(where: { $0.number == CInt(byte) }) else { return }
                    handler(signal)
                }
            }
        } catch {
            system.close(pipe.read); system.close(pipe.write)
            throw error
        }
        // Set before the handler can run (so it never runs a global's lazy initializer).
        stopSignalPipe = pipe.write
        for signal in StopSignal.allCases { installStopHandler(signal.number) }
        // A process inherits its parent's signal mask: one started from a thread
        // that blocks SIGTERM (a Dispatch worker's, as a test's `Process`) would
        // never see it. Unblocked on this thread (the caller's), and on the threads
        // it starts later: the server's reactor and workers.
        unblockStopSignals()
        return StopSignalHandlers(pipe: pipe, thread: thread)
    }
}

/// The pipe's write end the C handler writes to (-1: none). Written before
/// the handler is installed and after it is removed.
nonisolated(unsafe) private var stopSignalPipe: CInt = -1

/// The C handler: the signal's number, one byte, down the pipe; errno kept.
private func stopSignalArrived(_ number: CInt) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(stopSignalPipe, &byte, 1)
    errno = saved
}

/// Installs ``stopSignalArrived(_:)`` for the signal (BSD semantics: kept after
/// each delivery, interrupted calls restarted).
@inline(__always) private func installStopHandler(_ number: CInt) { _ = signal(number, stopSignalArrived) }

/// Unblocks `SIGTERM` and `SIGINT` on the calling thread.
private func unblockStopSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in StopSignal.allCases { sigaddset(&set, signal.number) }
    _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
}

/// Ignores the signal.
@inline(__always) private func ignoreSignal(_ number: CInt) { _ = signal(number, SIG_IGN) }
