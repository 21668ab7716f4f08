/// For the tests of layers over the writer (the group commit of `ProgressLedger`'s store).
extension LedgerWriter {
    /// Opens the log with the fault seam (tests of layers over the writer).
    package convenience init(path: String, create: Bool, faults: FaultInjector?) throws(LedgerError) {
        try self.init(path: path, create: create, system: System(faults: faults))
    }
}
