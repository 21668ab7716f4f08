// A server's end on SIGTERM and SIGINT: the signals are ignored as signals
// and delivered to a Dispatch source instead, so the handler is ordinary code.

import Dispatch
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

/// Keeps the handlers of ``System/onStop(_:)`` installed while it lives.
package final class StopSignalHandlers: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]
    init(_ sources: [DispatchSourceSignal]) { self.sources = sources }
    deinit { for source in sources { source.cancel() } }
}

extension System {
    /// Calls `handler` (on a Dispatch queue) each time the process receives
    /// `SIGTERM` or `SIGINT`, instead of ending it; keep the result alive.
    package static func onStop(_ handler: @escaping @Sendable (StopSignal) -> Void) -> StopSignalHandlers {
        let queue = DispatchQueue(label: "progress-ledger.signals")
        return StopSignalHandlers(StopSignal.allCases.map { signal in
            _ = ignoreSignal(signal.number)
            let source = DispatchSource.makeSignalSource(signal: signal.number, queue: queue)
            source.setEventHandler { handler(signal) }
            source.resume()
            return source
        })
    }
}

/// Ignores the signal as a signal (the Dispatch source still sees it).
@inline(__always) private func ignoreSignal(_ number: CInt) -> Bool { _ = signal(number, SIG_IGN); return true }
