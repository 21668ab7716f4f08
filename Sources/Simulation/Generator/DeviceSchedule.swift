import Events

/// One learner's events as their devices record and sync them: what the
/// demo drives through the ledger's sync API (`Outbox`, `Replica`) to show
/// what synced events look like (docs/sync.md).
///
/// A phone is online: it syncs (push, then pull) at the end of each sitting,
/// right after the last event it records before another device records or
/// half an hour passes. Any other device (a tablet on a train) is offline while it
/// records and syncs late: when it next records on a later day, and at the
/// end (every device twice round, so all end with the whole server log). Events the server records itself (`device` "server") go straight to
/// the server log. The same events give the same steps.
///
/// The demo runs it over the followed learner's first ``days`` days only:
/// every sync reads the outbox, the replica and the server log whole (each is
/// verified), so syncing a long history after every event would cost its
/// square; two weeks show every kind of sync.
package struct DeviceSchedule: Sequence, Sendable {
    /// The days of a learner's history the demo syncs.
    package static let days = 14

    /// One step.
    package enum Step: Sendable, Hashable {
        /// `device` records `event` in its outbox.
        case record(device: String, event: NewEvent)
        /// The server records `event` itself.
        case serverRecord(NewEvent)
        /// `device` pushes its pending events, then pulls the server's new lines.
        case sync(device: String)
    }

    /// The steps, in order.
    package let steps: [Step]

    /// The schedule of `events` (one learner's, in recording order).
    package init(_ events: [NewEvent]) {
        var steps: [Step] = []
        var lastDay: [String: Day] = [:]
        var devices: [String] = []
        for (k, event) in events.enumerated() {
            guard let device = event.device, device != "server" else {
                steps.append(.serverRecord(event))
                continue
            }
            if !devices.contains(device) { devices.append(device) }
            let online = device.hasPrefix("phone")
            if !online, let last = lastDay[device], last < event.at.day { steps.append(.sync(device: device)) }
            lastDay[device] = event.at.day
            steps.append(.record(device: device, event: event))
            if online, Self.endsSitting(event, next: k + 1 < events.count ? events[k + 1] : nil) { steps.append(.sync(device: device)) }
        }
        // At the end every device syncs, twice round: the second round brings each
        // the lines the others pushed in the first.
        steps += (devices + devices).map { .sync(device: $0) }
        self.steps = steps
    }

    /// Whether `event` is its device's last before another device records or half an hour passes.
    private static func endsSitting(_ event: NewEvent, next: NewEvent?) -> Bool {
        guard let next, next.device == event.device else { return true }
        return next.at.instant > event.at.instant.advanced(seconds: 1800)
    }

    /// The steps.
    package func makeIterator() -> IndexingIterator<[Step]> { steps.makeIterator() }
}
