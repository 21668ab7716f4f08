/// Every perfect subtree's root of a tree held at once (about `2n` hashes
/// for `n` leaves), for many proofs of one tree: each proof is then a
/// few lookups (``inclusionProof(index:)``) instead of a pass over the log.
/// `export --user --receipts` proves every line of a learner with it;
/// one proof streams instead (``SubtreeHashes``).
package struct MerkleLevels: Sendable {
    /// `levels[l][i]`: the root of leaves `i * 2^l ..< (i + 1) * 2^l`.
    private var levels: [[SHA256.Digest]]

    /// The levels over the leaves whose leaf hashes are `leafHashes`.
    package init(leafHashes: [SHA256.Digest]) {
        levels = [leafHashes]
        while let below = levels.last, below.count > 1 {
            levels.append(stride(from: 0, to: below.count - 1, by: 2).map { MerkleTree.nodeHash(below[$0], below[$0 + 1]) })
        }
    }

    /// The leaves.
    package var size: Int { levels[0].count }

    /// The tree hash of the leaves `range`, which starts at a multiple of the
    /// largest power of two not above its length (every subtree of a proof does).
    package func hash(of range: Range<Int>) -> SHA256.Digest {
        var compact = CompactRange()
        var position = range.lowerBound
        for level in stride(from: Int.bitWidth - 2, through: 0, by: -1) where range.count & (1 << level) != 0 {
            precondition(position % (1 << level) == 0, "the subtree \(range) is not aligned")
            compact.append(subtree: levels[level][position >> level], level: level)
            position += 1 << level
        }
        return compact.root
    }

    /// The tree hash of all the leaves.
    package var root: SHA256.Digest { hash(of: 0..<size) }

    /// The inclusion proof of leaf `index` in the whole tree.
    package func inclusionProof(index: Int) -> [SHA256.Digest] {
        MerkleTree.inclusionSubtrees(index: index, size: size).map(hash(of:))
    }
}
