/// The Merkle tree (``MerkleTree``) of a log's lines, or of one learner's
/// log in a ledger directory, read from the file: its head at any size, a
/// signed checkpoint, inclusion and consistency proofs
/// (`LogTree+Receipts.swift`).
///
/// Every read checks the whole log as `verify` does (a learner log as
/// `verify DIR` does, so it must also hold only its learner's events) and
/// hashes the tree in the same pass, keeping stacks of subtree roots: memory
/// does not grow with the log, and the time is verify's plus two short
/// hashes a line. A damaged log is refused with verify's message.
///
/// ```swift
/// let signer = try NoteSigner(contentsOf: "school.key")
/// let tree = try LogTree(directory: LedgerDirectory(opening: "ledger.d"), user: "u-42")
/// let signed = try tree.checkpoint(origin: "school.example/progress/u-42", signer: signer)
/// let proof = try tree.inclusionProof(seq: 7, checkpoint: signed, checkpointPath: "u-42.checkpoint")
/// ```
public struct LogTree: Sendable {
    /// The log whose lines are the leaves.
    public let path: String
    /// The learner log, when the tree is one of a directory.
    private let learner: LearnerLog?

    /// The tree of the log at `path`.
    public init(log path: String) { self.path = path; learner = nil }

    /// The tree of `user`'s learner log in `directory`, which must exist
    /// (a `.notFound` error naming the directory otherwise).
    public init(directory: LedgerDirectory, user: String) throws(LedgerError) {
        let log = try directory.existingLearnerLog(user: user)
        path = log.path
        learner = log
    }

    /// Reads the log once, checking every line as `verify` does, and calls
    /// `leaf` with each accepted line's leaf hash, in order. Returns verify's
    /// report (a learner log's damage is thrown instead, with `verify DIR`'s
    /// message). `expectHead` is checked on a log; a learner log has none.
    package func read(expectHead: Head? = nil, _ leaf: (SHA256.Digest) -> Void) throws(LedgerError) -> VerifyReport {
        let hash: (SHA256.Digest) -> Void = { leaf(MerkleTree.leafHash(lineDigest: $0)) }
        guard let learner else { return try LogReader(path: path).verify(expectHead: expectHead, leaves: hash) }
        if expectHead != nil {
            throw LedgerError(.io, path: path, "a learner log of a directory is checked by its checkpoint or the directory's digest, not an expected head")
        }
        return VerifyReport(path: path, problem: nil, summary: try LedgerDirectory.readLearner(learner, records: false, leaves: hash))
    }

    /// ``read(expectHead:_:)`` of a log that must verify: its summary, or the
    /// damage (and any failure to read) as a ``ReceiptError/Kind/file`` error.
    package func readVerified(_ leaf: (SHA256.Digest) -> Void) throws(ReceiptError) -> LogSummary {
        do throws(LedgerError) {
            let report = try read(leaf)
            if let problem = report.problem { throw LedgerError(damaged: problem, path: path) }
            return report.summary
        } catch {
            throw ReceiptError(reading: error)
        }
    }

    /// The tree head of the first `size` lines (every line when nil), after
    /// checking the whole log; a log with fewer lines is a ``ReceiptError/Kind/size`` error.
    public func head(size: Int? = nil) throws(ReceiptError) -> TreeHead {
        var tree = CompactRange()
        let limit = size ?? Int.max
        let summary = try readVerified { if tree.count < limit { tree.append($0) } }
        try Self.check(lines: summary.events, reach: limit == Int.max ? 0 : limit, path: path)
        return TreeHead(size: tree.count, root: tree.root)
    }

    /// A ``ReceiptError/Kind/size`` error unless `lines` reach `size`.
    static func check(lines: Int, reach size: Int, path: String, for what: String = "") throws(ReceiptError) {
        guard lines >= size else {
            throw ReceiptError(.size, path: path, "the log has \(lines) line\(lines == 1 ? "" : "s"), fewer than the \(size) of the tree\(what)")
        }
    }
}
