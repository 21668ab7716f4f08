import Events

/// What ``LedgerDirectory/append(_:durability:)`` did for one learner.
public struct LearnerAppend: Sendable {
    /// The learner.
    public var user: String
    /// The learner log's path.
    public var path: String
    /// The batch's events of this learner, in input order, with their places in the batch.
    public var indices: [Int]
    /// Their results (`seq`s of the learner log), or why none was appended.
    public var outcome: Result<[AppendResult], LedgerError>
}

extension LedgerDirectory {
    /// Appends a batch to the learner logs: each event goes to its user's log,
    /// each learner's events as one batch, all or nothing (`LedgerWriter.append(_:durability:)`),
    /// learners in the order their first event comes. A learner whose append
    /// fails does not stop the others: the result says which committed.
    /// Re-sending the batch appends only what is missing (ids already in a
    /// learner log are `alreadyPresent`).
    public func append(_ events: [NewEvent], durability: Durability = .everyBatch) -> [LearnerAppend] {
        var order: [String] = []
        var groups: [String: [Int]] = [:]
        for (i, e) in events.enumerated() {
            if groups[e.user] == nil { order.append(e.user) }
            groups[e.user, default: []].append(i)
        }
        return order.map { user in
            let indices = groups[user] ?? []
            let path = learnerPath(user: user)
            do throws(LedgerError) {
                try makeFolder(forLearner: Self.learnerName(user: user))
                let writer = try LedgerWriter(path: path)
                defer { writer.close() }
                let results = try writer.append(indices.map { events[$0] }, durability: durability)
                return LearnerAppend(user: user, path: path, indices: indices, outcome: .success(results))
            } catch {
                return LearnerAppend(user: user, path: path, indices: indices, outcome: .failure(error))
            }
        }
    }
}
