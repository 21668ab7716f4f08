import Dispatch
import Events

/// What ``LedgerDirectory/verify(expectDigest:workers:)`` found.
///
/// Only the learner logs with something to say (a problem or a warning) are
/// kept; the others are counted and hashed into the digest as they are
/// checked, so verifying a directory takes the same memory whatever the
/// number of learners.
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

    /// How many learner logs were checked.
    public var learnerCount: Int
    /// The events of the learner logs read to the end.
    public var events: Int
    /// The learner logs with a problem or a warning (a torn tail), sorted by name.
    public var noted: [Learner]
    /// The directory digest over every learner log's head (see ``LedgerDirectory/digest(_:)``);
    /// nil when a learner log is damaged.
    public var digest: SHA256.Digest?
    /// Set when a digest was expected and differs from ``digest``.
    public var digestMismatch: Bool

    /// The learner logs with a problem, in name order.
    public var problems: [Learner] { noted.filter { $0.problem != nil } }
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
        /// A worker's counts and the logs it has something to say about.
        struct Part: Sendable {
            var learners = 0, events = 0
            var noted: [DirectoryVerifyReport.Learner] = []
        }
        let digest = OrderedDigest()
        let parts = try foldAny(workers: workers, makePartial: { Part() }) { (part, place, log) throws(LedgerError) in
            let learner = Self.check(log)
            part.learners += 1
            part.events += learner.summary?.events ?? 0
            if learner.problem != nil || !(learner.summary?.warnings.isEmpty ?? true) { part.noted.append(learner) }
            digest.add(place, learner.summary.map { Self.digestLine(name: log.name, head: $0.head) })
        }
        let noted = parts.flatMap(\.noted).sorted { $0.log.name < $1.log.name }
        let value = noted.allSatisfy({ $0.problem == nil }) ? digest.finalize() : nil
        return DirectoryVerifyReport(learnerCount: parts.reduce(0) { $0 + $1.learners }, events: parts.reduce(0) { $0 + $1.events },
                                     noted: noted, digest: value, digestMismatch: expectDigest != nil && value != expectDigest)
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

/// The directory digest (``LedgerDirectory/digest(_:)``) computed as the
/// learner logs are checked, out of order: each log's line is hashed once
/// every log before it in name order has been, and only the lines waiting
/// for an earlier one are held (a few, as the workers take logs in order).
///
/// `@unchecked Sendable`: every member but `lock` is used only between
/// `lock.wait()` and `lock.signal()`.
private final class OrderedDigest: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var hasher = SHA256()
    /// The place of the next line to hash.
    private var next = 0
    /// Lines waiting for an earlier one, by place; nil for a damaged log (no line).
    private var waiting: [Int: [UInt8]?] = [:]

    /// The line of the log at `place` in name order (nil for a damaged log).
    func add(_ place: Int, _ line: [UInt8]?) {
        lock.wait()
        defer { lock.signal() }
        waiting[place] = .some(line)
        while let entry = waiting.removeValue(forKey: next) {
            if let line = entry { hasher.update(line) }
            next += 1
        }
    }

    /// The digest of every line added.
    func finalize() -> SHA256.Digest {
        lock.wait()
        defer { lock.signal() }
        return hasher.finalize()
    }
}
