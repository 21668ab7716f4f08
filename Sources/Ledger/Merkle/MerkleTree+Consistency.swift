/// Consistency proofs (RFC 6962, section 2.1.2; RFC 9162, section 2.1.4): the
/// hashes that show a tree of `old` leaves is the first `old` leaves of a
/// tree of `new` leaves, that is, the log only appended.
extension MerkleTree {
    /// The subtrees whose tree hashes make the consistency proof from the
    /// tree of `old` leaves to the tree of `new`, in the proof's order (the
    /// deepest first): RFC 6962's `PROOF(m, D[n])` = `SUBPROOF(m, D[n], true)`,
    /// walked down from the root. Empty when `old` is 0 or `new`.
    package static func consistencySubtrees(from old: Int, to new: Int) -> [Range<Int>] {
        precondition(old >= 0 && old <= new, "a tree of \(old) is not the start of a tree of \(new)")
        guard old > 0, old < new else { return [] }
        var subtrees: [Range<Int>] = []
        var (low, high) = (0, new)
        // `low < old <= high` throughout; SUBPROOF's flag b is `low == 0`.
        while old < high {
            let k = split(high - low)
            if old <= low + k {
                subtrees.append((low + k)..<high)
                high = low + k
            } else {
                subtrees.append(low..<(low + k))
                low += k
            }
        }
        // `old == high`: this subtree is the old tree itself (known to the verifier) or a part of it to send.
        if low > 0 { subtrees.append(low..<high) }
        return subtrees.reversed()
    }

    /// The roots of the trees of `old` and `new` leaves that `proof` leads to
    /// from the old root `oldRoot` (RFC 9162, 2.1.4.2), or nil when the proof
    /// cannot be one between those sizes (the wrong number of hashes, `old`
    /// below 1 or above `new`). The proof checks when the first is `oldRoot`
    /// and the second the new root the caller trusts. Between equal sizes the
    /// proof is empty and both roots are `oldRoot`. (From the empty tree
    /// there is nothing to prove: every tree starts with it.)
    public static func roots(fromConsistencyProof proof: [SHA256.Digest], oldRoot: SHA256.Digest,
                             from old: Int, to new: Int) -> (old: SHA256.Digest, new: SHA256.Digest)? {
        guard old >= 1, old <= new else { return nil }
        if old == new { return proof.isEmpty ? (oldRoot, oldRoot) : nil }
        guard !proof.isEmpty else { return nil }
        // When the old tree is a perfect subtree of the new one, the proof leaves out its root.
        let path = old & (old - 1) == 0 ? [oldRoot] + proof : proof
        var fn = old - 1, sn = new - 1
        while fn & 1 == 1 { fn >>= 1; sn >>= 1 }
        var fr = path[0], sr = path[0]
        for c in path.dropFirst() {
            guard sn != 0 else { return nil }
            if siblingIsLeft(&fn, &sn) {
                fr = nodeHash(c, fr)
                sr = nodeHash(c, sr)
            } else {
                sr = nodeHash(sr, c)
            }
            fn >>= 1; sn >>= 1
        }
        return sn == 0 ? (fr, sr) : nil
    }
}
