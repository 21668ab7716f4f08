import Dispatch
import Events
import Ledger
import SyncWire

/// `serve --max-push-rate EVENTS/S`: how many events each learner may push
/// per second, sustained (docs/sync.md, "Limits").
///
/// A learner's pushes run up a debt of `1/rate` seconds an event (the
/// generic cell rate algorithm): a push is taken while the learner's debt is
/// at most one second (so a device coming back online sends its whole outbox
/// batch in one push), and its events are added to the debt; past that, it
/// is refused `429 rate_limited` with `Retry-After` the whole seconds until
/// the debt is back to one second, and nothing is read into the log: the
/// request intake asks ``wait(user:now:)`` before reading the body (a limited
/// learner's body is never read), the push route ``take(user:events:now:)``
/// once it counted the events (refusing only a push that raced another past
/// the limit after its head was judged). Learners
/// are kept apart: one learner's pushes never slow another's. Learners are keyed
/// by code points (`ExactString`, never compared as `String`s).
final class PushRateLimit: @unchecked Sendable {
    /// Events per second, sustained.
    let eventsPerSecond: Int
    private let nanosecondsPerEvent: UInt64
    /// The debt taken before a push waits.
    private static let tolerance: UInt64 = 1_000_000_000
    private let lock = DispatchSemaphore(value: 1)
    /// Guarded by `lock`: when each learner's debt is paid off (monotonic nanoseconds).
    private var paidOffAt: [ExactString: UInt64] = [:]
    private var pruneAt = 1024

    init(eventsPerSecond: Int) {
        self.eventsPerSecond = max(1, eventsPerSecond)
        nanosecondsPerEvent = 1_000_000_000 / UInt64(self.eventsPerSecond)
    }

    /// The seconds `user` must wait before a push is taken at `now`; nil
    /// when one is taken now. Takes nothing.
    func wait(user: String, now: UInt64 = System.monotonicNanoseconds()) -> Int? {
        let key = ExactString(user)
        lock.wait()
        defer { lock.signal() }
        return Self.seconds(past: paidOffAt[key], now: now)
    }

    /// Takes a push of `events` events by `user` at `now`, or refuses it with the seconds to wait.
    func take(user: String, events: Int, now: UInt64 = System.monotonicNanoseconds()) -> Int? {
        let key = ExactString(user)
        lock.wait()
        defer { lock.signal() }
        if let seconds = Self.seconds(past: paidOffAt[key], now: now) { return seconds }
        paidOffAt[key] = max(paidOffAt[key] ?? now, now) + UInt64(max(0, events)) * nanosecondsPerEvent
        if paidOffAt.count >= pruneAt {   // learners whose debt is paid off are as if never seen
            paidOffAt = paidOffAt.filter { $0.value > now }
            pruneAt = max(1024, paidOffAt.count * 2)
        }
        return nil
    }

    /// The whole seconds until a debt paid off at `paidOff` is back to the
    /// tolerance; nil when it is within it at `now`.
    private static func seconds(past paidOff: UInt64?, now: UInt64) -> Int? {
        let due = max(paidOff ?? now, now)
        guard due - now > tolerance else { return nil }
        return Int((due - now - tolerance + 999_999_999) / 1_000_000_000)
    }
}

extension HTTPError {
    /// `429 rate_limited` with `Retry-After` (and `retry_after` in the body): `seconds` to wait.
    static func rateLimited(user: String, rate: Int, seconds: Int) -> HTTPError {
        var e = HTTPError(429, "rate_limited", "learner \"\(user)\" pushed more than \(rate) events a second (--max-push-rate); "
                          + "nothing was written: retry after \(seconds) s")
        e.headers = [(RetryAfterField.name, RetryAfterField.value(seconds: seconds))]
        e.members = [JSONMember("retry_after", .number(String(seconds)))]
        return e
    }
}
