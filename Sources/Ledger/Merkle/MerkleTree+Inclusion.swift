/// Inclusion proofs (RFC 6962, section 2.1.1; RFC 9162, section 2.1.3): the
/// hashes that lead from one leaf to the root of a tree.
extension MerkleTree {
    /// The subtrees whose tree hashes make the inclusion proof of leaf
    /// `index` in the tree of `size` leaves, in the proof's order (the leaf's
    /// sibling first, the root's child last): RFC 6962's `PATH(m, D[n])`,
    /// walked down from the root. Each is a range of leaf indexes.
    package static func inclusionSubtrees(index: Int, size: Int) -> [Range<Int>] {
        precondition(index >= 0 && index < size, "leaf \(index) is not in a tree of \(size)")
        var subtrees: [Range<Int>] = []
        var (low, high) = (0, size)
        while high - low > 1 {
            let k = split(high - low)
            if index < low + k {
                subtrees.append((low + k)..<high)
                high = low + k
            } else {
                subtrees.append(low..<(low + k))
                low += k
            }
        }
        return subtrees.reversed()
    }

    /// The root that `proof` leads to from the leaf hash `leafHash` at
    /// `index` in a tree of `size` leaves (RFC 9162, 2.1.3.2), or nil when the
    /// proof cannot be one for that index and size (too few or too many
    /// hashes, or `index` not below `size`). The caller compares the root
    /// with the one it trusts.
    public static func root(fromInclusionProof proof: [SHA256.Digest], leafHash: SHA256.Digest,
                            index: Int, size: Int) -> SHA256.Digest? {
        guard index >= 0, index < size else { return nil }
        var fn = index, sn = size - 1
        var r = leafHash
        for p in proof {
            guard sn != 0 else { return nil }
            r = siblingIsLeft(&fn, &sn) ? nodeHash(p, r) : nodeHash(r, p)
            fn >>= 1; sn >>= 1
        }
        return sn == 0 ? r : nil
    }

    /// One step up RFC 9162's proof walks (2.1.3.2, 2.1.4.2), node `fn` of a
    /// level whose last node is `sn`: whether the proof's next hash is the
    /// node's left sibling (`fn` is odd, or the last node, on the right edge).
    /// On the right edge with `fn` even, first climbs `fn` and `sn` past the
    /// levels where the node has no sibling. The caller then moves both up one level.
    static func siblingIsLeft(_ fn: inout Int, _ sn: inout Int) -> Bool {
        guard fn & 1 == 1 || fn == sn else { return false }
        while fn & 1 == 0 && fn != 0 { fn >>= 1; sn >>= 1 }
        return true
    }

    /// How many hashes the inclusion proof of leaf `index` in a tree of `size` holds.
    package static func inclusionProofLength(index: Int, size: Int) -> Int {
        inclusionSubtrees(index: index, size: size).count
    }
}
