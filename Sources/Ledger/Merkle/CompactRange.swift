/// The tree hash of a list of leaves fed in order, keeping only the roots of
/// its perfect subtrees: one per set bit of the count, at most 64 hashes
/// whatever the length (a "compact range" in transparency-log terms).
///
/// The list's tree hash (``MerkleTree``) splits it at the largest power of
/// two below its length, so it is made of the perfect subtrees of the count's
/// binary digits, largest first: appending a leaf merges equal subtrees the
/// way a binary counter carries, and ``root`` folds what is left from the
/// right. The list is a tree of its own: a range of a log's leaves starting
/// anywhere has its tree hash here (a proof's subtrees).
package struct CompactRange: Sendable {
    /// Leaves covered.
    package private(set) var count = 0
    /// `hashes[level]`: the root of the perfect subtree of `2^level` leaves, for each set bit of `count`.
    private var hashes = [SHA256.Digest](repeating: .zero, count: Int.bitWidth)

    /// An empty range.
    package init() {}

    /// Adds the next leaf, by its leaf hash.
    package mutating func append(_ leafHash: SHA256.Digest) { append(subtree: leafHash, level: 0) }

    /// Adds the next `2^level` leaves at once, by the root of their perfect
    /// subtree. `level` may not exceed the trailing zeros of ``count`` (a
    /// subtree never straddles a larger one): pieces go in largest first.
    package mutating func append(subtree root: SHA256.Digest, level: Int) {
        precondition(count == 0 || level <= count.trailingZeroBitCount, "a subtree larger than the one before it")
        var hash = root
        var carry = level
        while count & (1 << carry) != 0 {
            hash = MerkleTree.nodeHash(hashes[carry], hash)
            carry += 1
        }
        hashes[carry] = hash
        count += 1 << level
    }

    /// The tree hash of the leaves so far (``MerkleTree/emptyRoot`` for none).
    package var root: SHA256.Digest {
        guard count > 0 else { return MerkleTree.emptyRoot }
        var level = count.trailingZeroBitCount
        var hash = hashes[level]
        level += 1
        while level < Int.bitWidth - 1 {
            if count & (1 << level) != 0 { hash = MerkleTree.nodeHash(hashes[level], hash) }
            level += 1
        }
        return hash
    }
}
