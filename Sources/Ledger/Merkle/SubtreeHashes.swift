/// The tree hashes of a proof's subtrees and the root of the first `size`
/// leaves, from a log's leaves fed once, in order: one ``CompactRange`` per
/// subtree and one for the tree, so memory does not grow with the log (a
/// proof of a line of a 200 MB log keeps about 40 ranges of 64 hashes).
package struct SubtreeHashes: Sendable {
    /// The subtrees, in the proof's order.
    private let subtrees: [Range<Int>]
    /// Their positions in `subtrees`, by first leaf (they are disjoint).
    private let order: [Int]
    /// The next subtree (in `order`) a leaf can fall in.
    private var next = 0
    private var ranges: [CompactRange]
    private var tree = CompactRange()
    /// The leaves the tree covers.
    package let size: Int
    /// Leaves fed so far (the log's lines, which may go past `size`).
    package private(set) var leaves = 0

    /// Hashes for `subtrees` (disjoint ranges below `size`) and the tree of `size` leaves.
    package init(subtrees: [Range<Int>], size: Int) {
        self.subtrees = subtrees
        self.size = size
        order = subtrees.indices.sorted { subtrees[$0].lowerBound < subtrees[$1].lowerBound }
        ranges = Array(repeating: CompactRange(), count: subtrees.count)
    }

    /// Feeds the next leaf, by its leaf hash.
    package mutating func add(_ leaf: SHA256.Digest) {
        defer { leaves += 1 }
        guard leaves < size else { return }
        tree.append(leaf)
        guard next < order.count else { return }
        let k = order[next]
        guard subtrees[k].contains(leaves) else { return }
        ranges[k].append(leaf)
        if leaves == subtrees[k].upperBound - 1 { next += 1 }
    }

    /// The subtrees' tree hashes, in the proof's order (once every leaf below `size` was fed).
    package var hashes: [SHA256.Digest] { ranges.map(\.root) }

    /// The tree hash of the first `size` leaves.
    package var root: SHA256.Digest { tree.root }
}
