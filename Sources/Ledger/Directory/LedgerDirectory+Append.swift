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
    /// The torn tails the learner log's writer moved aside on opening it.
    public var recoveries: [Recovery] = []
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
        var groups: [ExactString: [Int]] = [:]
        for (i, e) in events.enumerated() {
            if groups[ExactString(e.user)] == nil { order.append(e.user) }
            groups[ExactString(e.user), default: []].append(i)
        }
        return order.map { user in
            let indices = groups[ExactString(user)] ?? []
            var learner = LearnerAppend(user: user, path: learnerPath(user: user), indices: indices, outcome: .success([]))
            do throws(LedgerError) {
                try makeFolder(forLearner: Self.learnerName(user: user))
                let writer = try LedgerWriter(path: learner.path)
                defer { writer.close() }
                learner.recoveries = writer.recoveries
                learner.outcome = .success(try writer.append(indices.map { events[$0] }, durability: durability))
            } catch {
                learner.outcome = .failure(error)
            }
            return learner
        }
    }
}
