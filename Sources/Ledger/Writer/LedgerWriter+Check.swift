import Events

/// For layers over the writer (the group commit of `ProgressLedger`'s store)
/// and their tests.
extension LedgerWriter {
    /// Checks a batch's events as `append(_:durability:)` checks each one
    /// before any I/O (the same `LineCodec` rules, the same `.invalidEvent`
    /// error naming the event), writing nothing. Ids repeated within the batch
    /// and ids already in the log are left to `append`.
    package static func check(_ events: [NewEvent], path: String) throws(LedgerError) {
        for k in events.indices {
            do {
                // A missing id becomes a UUID at append, which always keeps the id rule: "0" stands for it.
                _ = try LineCodec.encodeChecked(events[k], id: events[k].id ?? "0")
            } catch {
                throw LedgerError(invalid: error, index: k, count: events.count, id: events[k].id, path: path)
            }
        }
    }

    /// Opens the log with the fault seam (tests of layers over the writer).
    package convenience init(path: String, create: Bool, faults: FaultInjector?) throws(LedgerError) {
        try self.init(path: path, create: create, system: System(faults: faults))
    }
}
