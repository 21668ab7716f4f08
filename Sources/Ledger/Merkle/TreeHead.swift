/// A Merkle tree's head: how many leaves (a log's first `size` lines) and
/// the tree hash of them, which a checkpoint signs.
public struct TreeHead: Sendable, Hashable, CustomStringConvertible {
    /// The number of leaves.
    public var size: Int
    /// The tree hash (``MerkleTree``).
    public var root: SHA256.Digest

    /// Makes a head.
    public init(size: Int, root: SHA256.Digest) { self.size = size; self.root = root }

    /// `SIZE:BASE64ROOT`, the root as a checkpoint writes it.
    public var description: String { "\(size):\(Base64.encode(root.bytes))" }
}
