import Events

/// Errors about events and damaged logs.
extension LedgerError {
    /// An event of a batch that breaks a rule; `index` is 0-based in the batch.
    init(invalid error: EventError, index: Int, count: Int, id: String?, path: String) {
        let which = "event \(index + 1) of \(count)" + (id.map { " (id \"\($0)\")" } ?? "")
        self.init(.invalidEvent, path: path,
                  "\(which) is refused, nothing of its batch was written: \(error.kind.rawValue): \(error.message)",
                  cause: .event(error))
        eventIndex = index
    }

    /// A damaged log: the message is the problem as `verify` prints it.
    package init(damaged problem: LineProblem, path: String) {
        self.init(.damaged, path: path, problem.description, cause: .problem(problem))
    }

    /// Event `index` of a batch whose id `id` is already held with different content (`where`: "line 7", "event 2 of this batch").
    init(conflicting id: String, index: Int, count: Int, where place: String, path: String) {
        self.init(.conflictingDuplicate, path: path,
                  "event \(index + 1) of \(count) (id \"\(id)\") is refused, nothing of its batch was written: conflicting_duplicate: "
                      + "id \"\(id)\" is already used by \(place) with different content")
        eventIndex = index
    }
}
