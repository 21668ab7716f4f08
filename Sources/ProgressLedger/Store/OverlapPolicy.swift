import Dispatch

/// How many groups the store lets be on disk at once, chosen from what it
/// measures: the one rule of the group commit's overlap.
///
/// Overlapping `fsync`s pays when an `fsync` takes longer than preparing a
/// group: the callers' check, encoding and sealing, and the commit thread's
/// write (the next group is then ready before the `fsync` returns). When an
/// `fsync` costs less than that, overlapping only splits the callers into
/// smaller groups (more `fsync`s, more hand-offs between threads, the same
/// events a second), so the store writes one group at a time, as large as
/// the callers waiting make it (`GroupStart` gathers the callers it resumed).
///
/// Measured, as moving estimates (each new sample weighs a quarter; a sample
/// counts for at most four times the estimate, so one stalled thread does not
/// flip the choice, while a disk that stays slow is followed within a few
/// dozen groups):
/// - `fsync`: the wall time of each group's `fsync` (its own thread);
/// - a group's preparation per event: the wall time each caller spent
///   preparing and joining its events, plus the commit thread's time writing
///   the group, over the group's events;
/// - the events in flight: the group's events and those of the groups on disk
///   when it is taken (what one group would hold with no overlap).
///
/// Then, with `r` = `fsync` / (preparation per event × events in flight):
/// one group at a time while `r` < 1.5 (from one at a time) or < 0.75 (from
/// overlapping: a band, so that the choice does not flap at the edge);
/// otherwise `r` + 1 groups on disk, at most `most`. Before the first
/// measurements, two (the store's behaviour before the policy).
struct OverlapPolicy: Equatable {
    /// The most groups on disk at once (the store's `fsync` slots).
    let most: Int
    /// How many groups may be on disk at once now (1: one at a time).
    private(set) var depth: Int
    /// The estimate of one `fsync`, in nanoseconds (nil before the first).
    private(set) var fsyncNanoseconds: Double?
    /// The estimate of a group's preparation per event, in nanoseconds.
    private(set) var eventNanoseconds: Double?
    /// The estimate of the events in flight.
    private(set) var inFlight: Double?

    /// The ratio above which one-at-a-time starts overlapping.
    static let overlapAbove = 1.5
    /// The ratio below which overlapping goes back to one at a time.
    static let serialBelow = 0.75

    /// At most `most` groups on disk (at least 1); two before anything is measured.
    init(most: Int) {
        self.most = max(1, most)
        depth = min(2, self.most)
    }

    /// A group's `fsync` took `nanoseconds`.
    mutating func synced(nanoseconds: UInt64) {
        fsyncNanoseconds = Self.moved(fsyncNanoseconds, toward: Double(nanoseconds))
        choose()
    }

    /// A group of `events` events was prepared in `nanoseconds` (callers and
    /// commit thread), taken while `inFlight` events were in flight (its own included).
    mutating func prepared(nanoseconds: UInt64, events: Int, inFlight n: Int) {
        guard events > 0 else { return }
        eventNanoseconds = Self.moved(eventNanoseconds, toward: Double(nanoseconds) / Double(events))
        inFlight = Self.moved(inFlight, toward: Double(max(n, events)))
        choose()
    }

    /// `fsync` over the preparation of every event in flight (nil before both are measured).
    var ratio: Double? {
        guard let f = fsyncNanoseconds, let e = eventNanoseconds, let n = inFlight else { return nil }
        return f / max(1, e * n)
    }

    /// A monotonic clock, in nanoseconds (what the store's measurements are read with).
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private mutating func choose() {
        guard let r = ratio else { return }
        if r < (depth == 1 ? Self.overlapAbove : Self.serialBelow) {
            depth = 1
        } else {
            depth = min(most, max(2, Int(r) + 1))
        }
    }

    /// A quarter of the way from `estimate` to `sample` (capped at four times
    /// the estimate); the first sample as it is.
    private static func moved(_ estimate: Double?, toward sample: Double) -> Double {
        guard let estimate else { return sample }
        return estimate + (min(sample, 4 * estimate) - estimate) / 4
    }
}
