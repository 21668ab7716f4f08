import Events

/// What ``LedgerDirectory/verify(expectDigest:workers:)`` found.
public struct DirectoryVerifyReport: Sendable {
    /// One learner log's result.
    public struct Learner: Sendable {
        /// The log.
        public var log: LearnerLog
        /// Its summary (count, head, torn tail); nil when it could not be read to the end.
        public var summary: LogSummary?
        /// What is wrong with it, as `PATH: line K: KIND: detail`; nil when intact.
        public var problem: String?
    }

    /// Every learner log, sorted by name.
    public var learners: [Learner]
    /// The directory digest over every learner log's head (see ``LedgerDirectory/digest(_:)``);
    /// nil when a learner log is damaged.
    public var digest: SHA256.Digest?
    /// Set when a digest was expected and differs from ``digest``.
    public var digestMismatch: Bool

    /// The events of all learner logs.
    public var events: Int { learners.reduce(0) { $0 + ($1.summary?.events ?? 0) } }
    /// The learner logs with a problem, in name order.
    public var problems: [Learner] { learners.filter { $0.problem != nil } }
    /// Whether every learner log is intact (and the digest matches, when expected).
    public var isOK: Bool { problems.isEmpty && !digestMismatch }
}

extension LedgerDirectory {
    /// Checks every learner log as `verify` checks a log, in parallel over all
    /// cores, and that each holds only events of the learner its name hashes
    /// (an event of another user is a problem with its line); then the
    /// directory digest, compared with `expectDigest` when given.
    ///
    /// Throws only when the directory cannot be listed.
    public func verify(expectDigest: SHA256.Digest? = nil, workers: Int = LedgerDirectory.workers) throws(LedgerError) -> DirectoryVerifyReport {
        let logs = try learnerLogs()
        let partials = try Self.foldAny(logs, workers: workers, makePartial: { [DirectoryVerifyReport.Learner]() }) { (results, log) throws(LedgerError) in
            results.append(Self.check(log))
        }
        let learners = partials.flatMap { $0 }.sorted { $0.log.name < $1.log.name }
        var digest: SHA256.Digest? = nil
        if learners.allSatisfy({ $0.problem == nil }) {
            digest = Self.digest(learners.compactMap { l in l.summary.map { (l.log.name, $0.head) } })
        }
        let mismatch = expectDigest != nil && digest != expectDigest
        return DirectoryVerifyReport(learners: learners, digest: digest, digestMismatch: mismatch)
    }

    /// One learner log: every line checked, and every event its learner's
    /// (``readLearner(_:records:_:)``, no record made).
    static func check(_ log: LearnerLog) -> DirectoryVerifyReport.Learner {
        do {
            return .init(log: log, summary: try readLearner(log, records: false), problem: nil)
        } catch {
            return .init(log: log, summary: nil, problem: error.description)
        }
    }
}
