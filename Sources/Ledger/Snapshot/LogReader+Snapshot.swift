import Events

/// What ``LogReader/read(_:_:)`` read, and the snapshot it can save.
public struct LogRead: Sendable {
    /// The whole log's summary: count, head, torn tail.
    public var summary: LogSummary
    /// Why the snapshot file asked for was not used (the whole log was then
    /// read); nil when it was used, or when no snapshot was asked for.
    public var snapshotIgnored: SnapshotRejection?
    /// The snapshot to save, and where (nil: none asked for, or the file is already up to date).
    var pending: (snapshot: Snapshot, path: String)?

    init(summary: LogSummary, snapshotIgnored: SnapshotRejection? = nil, pending: (snapshot: Snapshot, path: String)? = nil) {
        self.summary = summary; self.snapshotIgnored = snapshotIgnored; self.pending = pending
    }

    /// Writes the snapshot file of ``LogReader/Options/snapshot`` for the
    /// next read to start from (atomically, mode 0600; see `Snapshot`).
    /// Does nothing when no snapshot was asked for or when the file already
    /// holds this read's end. Call it after using the records: a reader of
    /// your output need not wait for it.
    public func saveSnapshot() throws(LedgerError) {
        guard let pending else { return }
        try pending.snapshot.save(to: pending.path)
    }
}

extension LogReader {
    /// ``read(_:_:)`` with a snapshot file: its records first, then the tail;
    /// or, when it does not match, the whole log.
    ///
    /// A snapshot keeps the bytes of the lines whose records it handed over,
    /// so resuming decodes them again (the same decoder as the log's lines)
    /// and depends on nothing but the selection (the user). The tail's
    /// records are held until the tail has been checked (a repeated id found
    /// in it means a full read instead), then handed over after the snapshot's.
    func readResuming(_ snapshotPath: String, _ options: Options,
                      _ body: (consuming Record) throws(LedgerError) -> Void) throws(LedgerError) -> LogRead {
        let key = Snapshot.key(user: options.user)
        let ignored: SnapshotRejection
        switch Result(catching: { () throws(SnapshotRejection) in try Snapshot.load(from: snapshotPath, key: key) }) {
        case .failure(let why):
            ignored = why
        case .success(let saved):
            var tail: [Record] = []
            switch try scan(after: saved.resumePoint, options, tracking: true, { tail.append($0) }) {
            case .failure(let why):
                ignored = why
            case .success(let read):
                for record in saved.records { try body(record) }
                for record in tail { try body(record) }
                guard read.linesRead > 0 else { return LogRead(summary: read.summary) }   // nothing new: keep the file
                let next = Snapshot(resumePoint: read.resumePoint, key: key, lines: saved.lines + read.keptLines)
                return LogRead(summary: read.summary, pending: (next, snapshotPath))
            }
        }
        let read = try scanWhole(options, tracking: true, body)
        let next = Snapshot(resumePoint: read.resumePoint, key: key, lines: read.keptLines)
        return LogRead(summary: read.summary, snapshotIgnored: ignored, pending: (next, snapshotPath))
    }
}
