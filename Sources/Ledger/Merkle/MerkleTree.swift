/// The Merkle tree of RFC 6962 (and RFC 9162, section 2.1) over a log's
/// lines: leaf i's data is the 32-byte SHA-256 of line i, the digest the
/// chain uses (a redaction stub's `redacted` for an erased line, so an
/// erasure changes no leaf, no root and no checkpoint).
///
/// - leaf hash: `SHA-256(0x00 || data)`
/// - node hash: `SHA-256(0x01 || left || right)`
/// - the tree hash of `n > 1` leaves: the node hash of the first `k` leaves'
///   tree hash and the rest's, `k` the largest power of two below `n`; of
///   one leaf, its leaf hash; of none, `SHA-256()` of nothing.
///
/// This file is the one place those hashes are made. `CompactRange` folds
/// leaves into a tree hash keeping only a stack of subtree roots; the proofs
/// (`MerkleTree+Inclusion.swift`, `MerkleTree+Consistency.swift`) say which
/// subtrees a proof holds and check one; ``LogTree`` reads a log's leaves.
public enum MerkleTree {
    /// The tree hash of the empty tree: the SHA-256 of no bytes.
    public static let emptyRoot: SHA256.Digest = SHA256.hash([UInt8]())

    /// The leaf hash of `data`: `SHA-256(0x00 || data)`.
    public static func leafHash(_ data: some Collection<UInt8>) -> SHA256.Digest {
        var bytes: [UInt8] = [0x00]
        bytes.append(contentsOf: data)
        return bytes.withUnsafeBytes { LineDigest.of($0) }
    }

    /// The leaf hash of a line whose SHA-256 is `digest` (the leaf's data is the digest's 32 bytes).
    public static func leafHash(lineDigest digest: SHA256.Digest) -> SHA256.Digest {
        withUnsafeTemporaryAllocation(byteCount: 33, alignment: 8) { buffer -> SHA256.Digest in
            guard let base = buffer.baseAddress else { return leafHash(digest.bytes) }
            base.storeBytes(of: 0x00, as: UInt8.self)
            digest.store(to: base + 1)
            return LineDigest.of(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The hash of an inner node: `SHA-256(0x01 || left || right)`.
    public static func nodeHash(_ left: SHA256.Digest, _ right: SHA256.Digest) -> SHA256.Digest {
        withUnsafeTemporaryAllocation(byteCount: 65, alignment: 8) { buffer -> SHA256.Digest in
            guard let base = buffer.baseAddress else { return SHA256.hash([0x01] + left.bytes + right.bytes) }
            base.storeBytes(of: 0x01, as: UInt8.self)
            left.store(to: base + 1)
            right.store(to: base + 33)
            return LineDigest.of(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The tree hash of the leaves whose leaf hashes are `leafHashes`, in order.
    public static func root(leafHashes: some Sequence<SHA256.Digest>) -> SHA256.Digest {
        var range = CompactRange()
        for hash in leafHashes { range.append(hash) }
        return range.root
    }

    /// The largest power of two smaller than `n` (`n` >= 2): where the tree of `n` leaves splits.
    static func split(_ n: Int) -> Int {
        1 << (Int.bitWidth - 1 - (n - 1).leadingZeroBitCount)
    }
}
