import Events

extension LedgerDirectory {
    /// Reads one learner log on the calling thread: every line checked as
    /// `verify` checks a log, and every event the learner's (the log's name is
    /// the SHA-256 of its user's id: an event of another user is a
    /// `misrouted` problem at its line). With `records`, calls `body` with
    /// each record in order, made but for the envelope's strings (`id`,
    /// `at`'s text, `user`, `device` and `prev` are empty: every record is the
    /// learner's), lent for the call. Throws a `.damaged` error at the first problem, with
    /// `verify`'s message (`PATH: line K: KIND: detail`).
    ///
    /// The one read of a learner log for `verify DIR` and `report DIR`: a
    /// worker reads one log at a time, so nothing is handed between threads.
    ///
    /// `learnerID` is called once with the learner's user id, when the first
    /// line that names it is read.
    package static func readLearner(_ log: LearnerLog, records: Bool, learnerID: (String) -> Void = { _ in },
                                    _ body: (borrowing Record) throws(LedgerError) -> Void = { _ in }) throws(LedgerError) -> LogSummary {
        try readLearner(log, records: records, learnerID: learnerID, leaves: { _ in }, body)
    }

    /// ``readLearner(_:records:learnerID:_:)``, handing `leaves` each accepted line's
    /// digest in order (a stub's `redacted`): the Merkle tree's leaves (``LogTree``).
    package static func readLearner(_ log: LearnerLog, records: Bool, learnerID: (String) -> Void = { _ in },
                                    leaves: (SHA256.Digest) -> Void,
                                    _ body: (borrowing Record) throws(LedgerError) -> Void = { _ in }) throws(LedgerError) -> LogSummary {
        // The user the log's name hashes, once found: later lines are compared by their bytes.
        var learner: [UInt8]? = nil
        return try LogReader(path: log.path).readSerially(records: records) { (line, record) throws(LedgerError) in
            let mine = line.user { user in
                if let learner { return learner.withUnsafeBytes { Self.same($0, user) } }
                guard SHA256.hash(user).hex == log.name else { return false }
                learner = Array(user)
                learnerID(String(decoding: user, as: UTF8.self))
                return true
            }
            if mine == false {
                let other = learnerName(user: line.userText ?? "")
                throw LedgerError(damaged: LineProblem(line: line.number, kind: .misrouted,
                                                       "an event of another learner (its user's log is learners/\(other.prefix(2))/\(other).log)"),
                                  path: log.path)
            }
            leaves(line.digest)
            switch record {
            case .some(let record): try body(record)
            case .none: break
            }
        }
    }

    /// The learner log of `user`, which must exist: a `.notFound` error naming the directory otherwise.
    package func existingLearnerLog(user: String) throws(LedgerError) -> LearnerLog {
        let log = LearnerLog(name: Self.learnerName(user: user), path: learnerPath(user: user))
        guard Self.isFile(log.path) else {
            throw LedgerError(.notFound, path: path, "no learner log for user \"\(user)\" (\(log.path))")
        }
        return log
    }

    /// Whether two buffers hold the same bytes (a user id is compared on every line of its log).
    private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i + 8 <= a.count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < a.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }
}
