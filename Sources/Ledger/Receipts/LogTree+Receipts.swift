/// Checkpoints and proofs of a log, made from its lines (`progress-ledger
/// checkpoint`, `prove`, `verify --checkpoint`, `export --receipts`, a
/// server's checkpoint route). Each reads and checks the whole log once.
extension LogTree {
    /// The log's tree head at `size` lines (every line when nil), as a
    /// checkpoint of `origin` signed with `signer`: a learner log's signed
    /// checkpoint in one call. The origin is checked before the log is read.
    public func checkpoint(origin: String, signer: NoteSigner, size: Int? = nil) throws(ReceiptError) -> SignedCheckpoint {
        var checkpoint = try Checkpoint(origin: origin, head: TreeHead(size: 0, root: MerkleTree.emptyRoot))
        checkpoint.head = try head(size: size)
        return try SignedCheckpoint.sign(checkpoint, with: signer)
    }

    /// Verify's report of the log, read once with its tree: `mismatch` is
    /// nil when the log's first `checkpoint.size` lines have the checkpoint's
    /// root (the signed form of `--expect-head`), else the
    /// ``ReceiptError/Kind/size`` or ``ReceiptError/Kind/root`` error naming
    /// `checkpointPath`. When the report has a problem, the mismatch is not
    /// looked at. The checkpoint's signature is the caller's to check first
    /// (``SignedCheckpoint/verify(with:origin:path:)``).
    public func verify(expectHead: Head? = nil, against checkpoint: Checkpoint,
                       checkpointPath: String) throws(LedgerError) -> (report: VerifyReport, mismatch: ReceiptError?) {
        var tree = CompactRange()
        let report = try read(expectHead: expectHead) { if tree.count < checkpoint.size { tree.append($0) } }
        guard report.isOK else { return (report, nil) }
        do throws(ReceiptError) {
            try match(lines: report.events, root: tree.root, checkpoint, checkpointPath)
            return (report, nil)
        } catch {
            return (report, error)
        }
    }

    /// The inclusion proof of line `seq` against `checkpoint` (a `tlog-proof`
    /// carrying it), after checking that the log's first `checkpoint.size`
    /// lines have its root: ``ReceiptError/Kind/size`` when the line is past
    /// the checkpoint's tree or the log is shorter, ``ReceiptError/Kind/root``
    /// when the checkpoint is not of this log as it is. One pass, a stack of
    /// subtree roots per hash of the proof. An erased line's proof checks
    /// with the bytes it had (its stub keeps their digest).
    public func inclusionProof(seq: Int, checkpoint: SignedCheckpoint, checkpointPath: String) throws(ReceiptError) -> InclusionProof {
        let size = checkpoint.checkpoint.size
        guard seq >= 1, seq <= size else {
            throw ReceiptError(.size, path: checkpointPath, "line \(seq) is not in the checkpoint's tree of \(size) line\(size == 1 ? "" : "s")")
        }
        var hashes = SubtreeHashes(subtrees: MerkleTree.inclusionSubtrees(index: seq - 1, size: size), size: size)
        let summary = try readVerified { hashes.add($0) }
        try match(lines: summary.events, root: hashes.root, checkpoint.checkpoint, checkpointPath)
        return InclusionProof(index: seq - 1, hashes: hashes.hashes, checkpoint: checkpoint)
    }

    /// The consistency proof from `old` to `new` (two checkpoints of this
    /// log), after checking that the log has both roots at their sizes.
    /// `paths` name the checkpoints in errors.
    public func consistencyProof(from old: Checkpoint, to new: Checkpoint,
                                 paths: (old: String, new: String)) throws(ReceiptError) -> ConsistencyProof {
        guard old.size <= new.size else {
            throw ReceiptError(.size, path: paths.old, "the old checkpoint's tree (\(old.size) lines) is larger than the new one's (\(new.size))")
        }
        var hashes = SubtreeHashes(subtrees: MerkleTree.consistencySubtrees(from: old.size, to: new.size), size: new.size)
        var oldTree = CompactRange()
        let summary = try readVerified { leaf in
            hashes.add(leaf)
            if oldTree.count < old.size { oldTree.append(leaf) }
        }
        try match(lines: summary.events, root: oldTree.root, old, paths.old)
        try match(lines: summary.events, root: hashes.root, new, paths.new)
        return ConsistencyProof(hashes: hashes.hashes)
    }

    /// A checkpoint of the whole log of `origin`, signed with `signer`, and
    /// the inclusion proofs of lines `seqs` against it, from one read: every
    /// subtree root is kept (64 bytes a line), so each proof
    /// is a few lookups. For handing a learner a receipt of each of their
    /// events (`export --user --receipts`).
    public func receipts(seqs: [Int], origin: String, signer: NoteSigner) throws(ReceiptError) -> (checkpoint: SignedCheckpoint, proofs: [InclusionProof]) {
        var checkpoint = try Checkpoint(origin: origin, head: TreeHead(size: 0, root: MerkleTree.emptyRoot))
        var leaves: [SHA256.Digest] = []
        _ = try readVerified { leaves.append($0) }
        let levels = MerkleLevels(leafHashes: leaves)
        for seq in seqs where seq < 1 || seq > levels.size {
            throw ReceiptError(.size, path: path, "line \(seq) is not in the log's tree of \(levels.size) lines")
        }
        checkpoint.head = TreeHead(size: levels.size, root: levels.root)
        let signed = try SignedCheckpoint.sign(checkpoint, with: signer)
        return (signed, seqs.map { InclusionProof(index: $0 - 1, hashes: levels.inclusionProof(index: $0 - 1), checkpoint: signed) })
    }

    /// A ``ReceiptError/Kind/size`` or ``ReceiptError/Kind/root`` error unless
    /// the log (`lines` long) has `checkpoint`'s root at its size.
    private func match(lines: Int, root: SHA256.Digest, _ checkpoint: Checkpoint, _ checkpointPath: String) throws(ReceiptError) {
        try Self.check(lines: lines, reach: checkpoint.size, path: path, for: " of the checkpoint \(checkpointPath)")
        guard root == checkpoint.root else {
            throw ReceiptError(.root, path: path, "the log's first \(checkpoint.size) lines have the root \(Base64.encode(root.bytes)), "
                               + "not the root \(Base64.encode(checkpoint.root.bytes)) of the checkpoint \(checkpointPath): "
                               + "the checkpoint is of another log, or this log changed")
        }
    }
}
