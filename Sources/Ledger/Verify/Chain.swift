import Events

/// How a chain keeps the ids it has seen, for the `duplicate_id` check.
///
/// ``IDIndex`` keeps every id's bytes (the writer's, which also looks ids up
/// by value); ``IDFingerprints`` keeps a hash of each and reads a line back
/// from the file to confirm a match (the readers'), so it can fail with an I/O error.
protocol ChainIDs {
    /// What a lookup can fail with (`Never` for an index held in memory).
    associatedtype Failure: Error
    /// How many ids are kept.
    var count: Int { get }
    /// The seq `line`'s id already has, if it is kept.
    func seq(of line: borrowing CheckedLine) throws(Failure) -> Int?
    /// The seq `line`'s id already has; or, when it is new, keeps it as the
    /// next seq (the line's number) and returns nil. One probe for both.
    mutating func insertIfNew(_ line: borrowing CheckedLine) throws(Failure) -> Int?
}

/// What is known about a log up to a line: how many lines, the hash of the
/// last, and which ids are taken. Checks each next line as `verify` does.
///
/// Shared by `verify`, the validated read and the writer (which keeps one
/// across appends and feeds it only the lines added since it last looked).
/// The writer's keeps its ids in memory (``ChainState``); readers keep
/// fingerprints (``ReadChain``).
struct Chain<IDs: ChainIDs> {
    /// Lines accepted so far (= the last line's seq).
    private(set) var count = 0
    /// SHA-256 of the last accepted line (zeros before the first).
    private(set) var last = SHA256.Digest.zero
    /// Every id seen, with its seq.
    private(set) var ids: IDs
    /// Accepted lines with `v` > 1.
    private(set) var newerVersionLines = 0
    /// Accepted redaction stubs (on a read resumed from a snapshot, only those after its head).
    private(set) var redactedLines = 0
    /// A head to check on the way, if any.
    var expectHead: Head?

    /// A chain before the first line, keeping its ids in `ids` (empty, first seq 1).
    init(ids: IDs, expectHead: Head? = nil) {
        self.ids = ids
        self.expectHead = expectHead
    }

    /// The state after line `head.seq` of a log checked earlier (it hashes to
    /// `head.sha256`), for a read that goes on from the next line. The ids
    /// before it are not known here (`ids` is empty, its first seq
    /// `head.seq + 1`): such a read checks them itself
    /// (`LogReader.scan(after:_:tracking:_:)`).
    init(resumingAfter head: Head, newerVersionLines: Int, redactedLines: Int = 0, ids: IDs) {
        self.ids = ids
        self.redactedLines = redactedLines
        count = head.seq
        last = head.sha256
        self.newerVersionLines = newerVersionLines
    }

    var head: Head { Head(seq: count, sha256: last) }

    /// Checks a line already decoded and hashed (``CheckedLine``) as the next
    /// line; records it and returns nil, or returns the problem.
    ///
    /// Order of checks within a line: the line by itself (length, ending,
    /// encoding, JSON, envelope, data), then `seq`, then `prev`, then the id,
    /// then the expected head.
    mutating func accept(_ line: borrowing CheckedLine) throws(IDs.Failure) -> LineProblem? {
        if let e = line.problem { return LineProblem(line: line.number, e) }
        let expected = count + 1
        guard line.seq == expected else {
            return LineProblem(line: line.number, kind: .seqGap,
                               "seq is \(line.seq), expected \(expected) (line n must have seq n)")
        }
        guard line.prev == last else {
            // The record's prev is 64 lowercase hex digits, so it is its digest's hex.
            let detail = count == 0
                ? "prev is \(line.prev.hex), but the first line's prev must be 64 zeros"
                : "prev is \(line.prev.hex), but line \(count) hashes to \(last.hex)"
            return LineProblem(line: line.number, kind: .brokenChain, detail)
        }
        let digest = line.digest
        let headMismatch = expectHead.map { $0.seq == line.number && digest != $0.sha256 } ?? false
        // The id is looked up and (when new) indexed in one probe; a line
        // that then fails the head check must leave the index as it was.
        let earlier = headMismatch ? try ids.seq(of: line) : try ids.insertIfNew(line)
        if let earlier {
            return LineProblem(line: line.number, kind: .duplicateID,
                               "id \"\(line.id.text)\" is already used by line \(earlier)")
        }
        if headMismatch, let expectHead {
            return LineProblem(line: line.number, kind: .headMismatch,
                               "line \(line.number) hashes to \(digest.hex), not the expected \(expectHead.sha256.hex): "
                                   + "the log changed at or before this line")
        }
        count = expected
        last = digest
        if line.isNewer { newerVersionLines += 1 }
        if line.isRedacted { redactedLines += 1 }
        return nil
    }

    func summary(tornTail: TornTail?) -> LogSummary {
        LogSummary(events: count, newerVersionLines: newerVersionLines, head: head, tornTail: tornTail,
                   redactedLines: redactedLines)
    }
}

/// The writer's chain: every id in memory, to look ids up by value.
typealias ChainState = Chain<IDIndex>

/// A reader's chain: ids as fingerprints, confirmed from the file.
typealias ReadChain = Chain<IDFingerprints>

extension Chain where IDs == IDFingerprints {
    /// Prefetches the index slot of a line a few ahead (see ``IDFingerprints/prefetch(_:)``).
    @inline(__always) func prefetch(_ hash: UInt64) { ids.prefetch(hash) }
}

extension Chain where IDs == IDIndex {
    /// An empty chain keeping its ids in memory.
    init(expectHead: Head? = nil) { self.init(ids: IDIndex(), expectHead: expectHead) }

    /// The seq an id already has, if it is in the log.
    func seq(of id: String) -> Int? { ids.seq(of: id) }

    /// Checks `line` as the next line; on success records it and returns its record.
    mutating func accept(_ line: ScannedLine) -> Result<Record, LineProblem> {
        let (checked, record) = line.checkedWithRecord()
        if let problem = accept(checked) { return .failure(problem) }
        guard let record else {
            return .failure(LineProblem(line: line.number, kind: .format(.invalidEnvelope), "the line was checked but not kept"))
        }
        return .success(record)
    }

    /// Records a line the writer itself just appended (already checked by construction).
    /// `hash` is ``IDIndex/hash(_:)`` of its id.
    mutating func appendOwn(id: String, hash: UInt64, digest: SHA256.Digest) {
        count += 1
        last = digest
        ids.append(id, hash: hash)
    }
}
