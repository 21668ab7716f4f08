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
/// Two measures decide, the second over the first once it has both sides:
///
/// 1. **The ratio** of the times measured, as moving estimates (each new
///    sample weighs a quarter; a sample counts for at most four times the
///    estimate, so one stalled thread does not flip the choice, while a disk
///    that stays slow is followed within a few dozen groups):
///    - `fsync`: the wall time of each group's `fsync` (its own thread);
///    - a group's preparation per event: the wall time each caller spent
///      preparing and joining its events, plus the commit thread's time
///      writing the group, over the group's events;
///    - the events in flight: the group's events and those of the groups on
///      disk when it is taken (what one group would hold with no overlap).
///
///    With `r` = `fsync` / (preparation per event × events in flight): one
///    group at a time while `r` < 1.5 (from one at a time) or < 0.75 (from
///    overlapping: a band, so that the choice does not flap at the edge);
///    otherwise overlapping, `r` + 1 groups on disk, at most `most`. Before
///    the first measurements, two (the store's behaviour before the policy).
///    The ratio chooses the kind until the first group is acknowledged, and
///    the overlap's depth always. It misses what overlap costs beyond the preparation: a disk that
///    serves one file's `fsync`s one after another makes each overlapped
///    `fsync` longer, and smaller groups cost more `fsync`s and wake-ups.
///
/// 2. **The throughput trial**, while `r` < `sureAbove` (4: from there an
///    `fsync` covers the preparation of everything in flight four times over,
///    and overlapping is chosen without a trial), which counts those costs as they come out:
///    the events acknowledged a second, over windows of at least
///    `windowGroups` groups acknowledged and `windowFsyncs` `fsync` estimates
///    of time, each window under one kind of choice (one at a time, or
///    overlapping at the ratio's depth; a group counts under the kind it was
///    written under, and the first acknowledgement after a change only starts
///    the window). From the first acknowledgement the trial holds the kind
///    (the ratio's then, until a probe changes it). The first window warms up (the callers arriving, the
///    first groups): not counted. After the next, one window of the other
///    kind (a probe); then the kind with more events a second is kept for a
///    window, and the other probed again; each probe that confirms the
///    choice doubles the windows kept before the next (up to `keptWindows`),
///    one that changes it starts again at one (a hill-climb: a noisy probe is
///    checked again soon, a disk that changes is followed within one cycle).
///    The kind chosen is kept unless the other's rate is over it by more
///    than `margin` (at first the ratio's kind: a light load, where both
///    kinds acknowledge what comes, keeps the ratio's choice; two kinds
///    about as fast do not flap).
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
    /// Whether the ratio, alone, chooses overlapping (its band's side).
    private(set) var ratioOverlaps = true
    /// The events acknowledged a second one at a time, and overlapping, from
    /// the trial's windows (nil: not measured yet).
    private(set) var serialRate: Double?, overlapRate: Double?
    /// The trial's choice: true overlapping, false one at a time (nil before
    /// the first acknowledgement: the ratio decides; then the ratio's kind, until a probe changes it).
    private(set) var trialOverlaps: Bool?
    /// Whether the window now measured is a probe of the kind not chosen.
    private(set) var probing = false
    /// Changes whenever the kind of choice does (one at a time or
    /// overlapping): a group written before counts in no window after.
    private(set) var epoch = 0
    /// How many times the kind of choice changed (for the benchmark).
    private(set) var switches = 0
    /// The window measured now: since its first acknowledgement (nil before it), the events and groups acknowledged after it.
    private var window: Window?
    /// Windows of the kind chosen before the next probe.
    private var windowsLeft = 1
    /// Windows kept after the next probe if it confirms the choice (doubled then, up to `keptWindows`).
    private var kept = 1
    /// Whether the first window (the warm-up, not counted) is over.
    private var warmed = false

    /// A window of the throughput trial.
    private struct Window: Equatable {
        /// Its first acknowledgement's time.
        var start: UInt64
        /// The events and groups acknowledged after it.
        var events = 0, groups = 0
    }

    /// The ratio above which one-at-a-time starts overlapping.
    static let overlapAbove = 1.5
    /// The ratio below which overlapping goes back to one at a time.
    static let serialBelow = 0.75
    /// The ratio from which overlapping surely pays: no trial then.
    static let sureAbove = 4.0
    /// A trial window holds at least this many groups acknowledged...
    static let windowGroups = 32
    /// ... and lasts at least this many `fsync` estimates.
    static let windowFsyncs = 16
    /// The most windows of the kind chosen between two probes.
    static let keptWindows = 16
    /// The other kind's rate must pass the kind chosen's by this share to be chosen.
    static let margin = 1.0 / 8

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

    /// A group of `events` events, written in epoch `written`, was
    /// acknowledged at `now` (`OverlapPolicy.now()`): the trial's clock.
    mutating func acknowledged(events: Int, written: Int, now: UInt64) {
        guard most > 1, written == epoch, let r = ratio, r < Self.sureAbove else { return }
        // From the first acknowledgement on, the trial holds the kind (the ratio's then): the ratio sets the overlap's depth only.
        if trialOverlaps == nil { trialOverlaps = ratioOverlaps }
        guard var w = window else {
            window = Window(start: now)
            return
        }
        w.events += events
        w.groups += 1
        let span = now &- w.start
        guard w.groups >= Self.windowGroups, Double(span) >= Double(Self.windowFsyncs) * (fsyncNanoseconds ?? 0), span > 0 else {
            window = w
            return
        }
        window = Window(start: now)
        guard warmed else {
            warmed = true
            return
        }
        let rate = Double(w.events) * 1e9 / Double(span)
        if depth > 1 {
            overlapRate = probing || overlapRate == nil ? rate : ((overlapRate ?? rate) + rate) / 2
        } else {
            serialRate = probing || serialRate == nil ? rate : ((serialRate ?? rate) + rate) / 2
        }
        if probing {
            probing = false
            let before = trialOverlaps ?? ratioOverlaps, after = chosenByRates(keeping: before)
            trialOverlaps = after
            kept = after == before ? min(Self.keptWindows, 2 * kept) : 1
            windowsLeft = kept
        } else {
            windowsLeft -= 1
            if windowsLeft <= 0 { probing = true }
        }
        choose()
    }

    /// `fsync` over the preparation of every event in flight (nil before both are measured).
    var ratio: Double? {
        guard let f = fsyncNanoseconds, let e = eventNanoseconds, let n = inFlight else { return nil }
        return f / max(1, e * n)
    }

    /// A monotonic clock, in nanoseconds (what the store's measurements are read with).
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The kind the rates measured choose: `overlapping` (the kind chosen so
    /// far), unless the other's rate passes it by `margin`.
    private func chosenByRates(keeping overlapping: Bool) -> Bool {
        guard let serial = serialRate, let overlap = overlapRate else { return overlapping }
        if overlapping { return !(serial > overlap * (1 + Self.margin)) }
        return overlap > serial * (1 + Self.margin)
    }

    private mutating func choose() {
        guard let r = ratio else { return }
        ratioOverlaps = r >= (ratioOverlaps ? Self.serialBelow : Self.overlapAbove)
        if r >= Self.sureAbove {
            // Overlapping surely pays: no window, no probe (the trial starts again, from overlapping, below).
            if trialOverlaps != nil { trialOverlaps = true }
            probing = false
            window = nil
        }
        let chosen = trialOverlaps ?? ratioOverlaps
        let overlapping = most > 1 && (probing ? !chosen : chosen)
        if overlapping != (depth > 1) {
            epoch += 1
            switches += 1
            window = nil
        }
        depth = overlapping ? min(most, max(2, Int(r) + 1)) : 1
    }

    /// A quarter of the way from `estimate` to `sample` (capped at four times
    /// the estimate); the first sample as it is.
    private static func moved(_ estimate: Double?, toward sample: Double) -> Double {
        guard let estimate else { return sample }
        return estimate + (min(sample, 4 * estimate) - estimate) / 4
    }
}
