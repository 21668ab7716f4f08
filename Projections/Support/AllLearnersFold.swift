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
/// `LedgerSource` runs a fold over logs or a directory (`LedgerAnalytics`).
package protocol AllLearnersFold: Sendable {
    /// Folds one record of a log, in log order (newer-version lines are skipped).
    mutating func add(_ record: Record)
    /// Folds all the records of one learner, which `records` hands to the
    /// function it is given, in log order, and returns: the learner's user id
    /// (the records' `user` may be empty). The users folded before are closed
    /// too. On an error thrown by `records`, the fold holds part of the learner: discard it.
    mutating func foldLearner<E: Error>(_ records: (_ add: (borrowing Record) -> Void) throws(E) -> String) throws(E)
    /// Adds another fold's learners (no learner has records in both).
    mutating func merge(_ other: Self)
}
