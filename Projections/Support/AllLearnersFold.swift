import Events

/// A fold of every learner's records into one result (the report, the
/// question analysis, the leaderboard) that a ledger directory can feed one
/// learner at a time, on several cores, in memory that does not grow with
/// its learners.
///
/// - ``add(_:)``: one record of a log, any user's, in log order.
/// - ``foldLearner(_:)``: all the records of one learner at once (a learner
///   log); the fold then keeps only what its result still needs of them.
/// - ``merge(_:)``: another fold's learners (other learners), the result
///   being that of all of them, in any order.
///
/// The skeleton is written here once: the learners open (numbered users and
/// each one's part, ``OpenLearners``), how a record reaches its learner, how
/// a learner log is folded, how learners are closed and folds merged. A fold
/// writes only what it adds: its part of a learner (``makeLearner()``), an
/// event of an open learner (``add(_:user:)``), what it keeps of a learner it
/// closes (``close(_:user:)``), what else it forgets then
/// (``forgetOpenLearners()``: their attempts), and how another fold's
/// closed learners join its result (``absorb(_:)``).
///
/// `LedgerSource` runs a fold over logs or a directory (`LedgerAnalytics`).
package protocol AllLearnersFold: Sendable {
    /// What the fold keeps of one learner while they are open.
    associatedtype Learner: Sendable
    /// The learners open: their numbers and parts.
    var openLearners: OpenLearners<Learner> { get set }
    /// A new learner's part.
    func makeLearner() -> Learner
    /// Folds one event of open learner number `user`, in log order.
    mutating func add(_ e: Envelope, user: Int32)
    /// Keeps what the result needs of an open learner being closed (`user`: their user id).
    mutating func close(_ learner: Learner, user: String)
    /// Forgets what the fold keeps of the open learners besides their parts
    /// (their attempts), keeping the storage for the next ones.
    mutating func forgetOpenLearners()
    /// Adds the result of another fold over the same range, whose learners
    /// are all closed (no learner has records in both).
    mutating func absorb(_ other: Self)
}

/// The open learners of an ``AllLearnersFold``: users numbered in the order
/// first seen (``UserNumbers``) and each one's part, by number.
package struct OpenLearners<Learner: Sendable>: Sendable {
    /// The users' ids, numbered.
    var users = UserNumbers()
    /// Their parts, by number.
    var parts: [Learner] = []

    /// No learner.
    init() {}
}

extension AllLearnersFold {
    /// Folds one record of a log, in log order (newer-version lines are skipped).
    package mutating func add(_ record: Record) {
        guard case .event(let e) = record else { return }
        let (number, isNew) = openLearners.users.number(e.user)
        if isNew { openLearners.parts.append(makeLearner()) }
        add(e, user: number)
    }

    /// Folds all the records of one learner, which `records` hands to the
    /// function it is given, in log order, and returns: the learner's user id
    /// (each record's `user` is not read: they are all the learner's, as a
    /// ledger directory's learner log holds only its learner's events). Then
    /// the learner is closed: the fold keeps only what its result needs.
    ///
    /// The users folded before are closed too: fold no more of their records
    /// (as after ``merge(_:)``). On an error thrown by `records`, the fold
    /// holds part of the learner: discard it.
    package mutating func foldLearner<E: Error>(_ records: (_ add: (borrowing Record) -> Void) throws(E) -> String) throws(E) {
        closeLearners()
        // The learner is number 0, named once their records have said who they are.
        openLearners.parts.append(makeLearner())
        let user = try records { record in
            switch record {
            case .event(let e): self.add(e, user: 0)
            case .newer: break
            }
        }
        _ = openLearners.users.number(user)
        closeLearners()
    }

    /// Closes every learner open: keeps what the result needs of each, then
    /// forgets their names, parts and attempts. The result is unchanged.
    package mutating func closeLearners() {
        guard !openLearners.parts.isEmpty else { return }
        for k in openLearners.parts.indices { close(openLearners.parts[k], user: openLearners.users.name(k)) }
        openLearners.parts.removeAll(keepingCapacity: true)
        openLearners.users.removeAll()
        forgetOpenLearners()
    }

    /// Adds what `other` folded: the records of other users (no user may have
    /// records in both), over the same range. The result is then that of all
    /// the records of both, in any order of the users (a ledger directory's
    /// learner logs are folded apart and merged). Fold no more records of
    /// `other`'s users into `self`.
    package mutating func merge(_ other: Self) {
        var other = other
        other.closeLearners()
        absorb(other)
    }
}
