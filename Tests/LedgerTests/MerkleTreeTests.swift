import Foundation
import Testing
@testable import Ledger

/// RFC 6962's tree, its inclusion and consistency proofs, written the way
/// the RFC defines them (recursion over lists of leaves), to check the
/// ledger's streaming code (``CompactRange``, ``SubtreeHashes``,
/// ``MerkleLevels``, RFC 9162's verification loops) against.
enum RFC6962Model {
    static func leaf(_ data: [UInt8]) -> [UInt8] { SHA256.hash([0x00] + data).bytes }
    static func node(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] { SHA256.hash([0x01] + left + right).bytes }

    /// The largest power of two smaller than n (n >= 2).
    static func k(_ n: Int) -> Int { var k = 1; while k * 2 < n { k *= 2 }; return k }

    /// MTH(D[n]), remembered by the leaves' bytes (the debug build's SHA-256 is slow).
    static func mth(_ d: ArraySlice<[UInt8]>) -> [UInt8] {
        let key = Array(d.joined())
        if let known = cache.get(key) { return known }
        let hash = computeMTH(d)
        cache.set(key, hash)
        return hash
    }

    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var hashes: [[UInt8]: [UInt8]] = [:]
        func get(_ key: [UInt8]) -> [UInt8]? { lock.withLock { hashes[key] } }
        func set(_ key: [UInt8], _ hash: [UInt8]) { lock.withLock { hashes[key] = hash } }
    }

    private static let cache = Cache()

    private static func computeMTH(_ d: ArraySlice<[UInt8]>) -> [UInt8] {
        switch d.count {
        case 0: return SHA256.hash([UInt8]()).bytes
        case 1: return leaf(d[d.startIndex])
        default:
            let k = k(d.count)
            return node(mth(d.prefix(k)), mth(d.dropFirst(k)))
        }
    }

    /// PATH(m, D[n]).
    static func path(_ m: Int, _ d: ArraySlice<[UInt8]>) -> [[UInt8]] {
        guard d.count > 1 else { return [] }
        let k = k(d.count)
        return m < k ? path(m, d.prefix(k)) + [mth(d.dropFirst(k))] : path(m - k, d.dropFirst(k)) + [mth(d.prefix(k))]
    }

    /// PROOF(m, D[n]) = SUBPROOF(m, D[n], true).
    static func proof(_ m: Int, _ d: ArraySlice<[UInt8]>) -> [[UInt8]] { subproof(m, d, true) }

    static func subproof(_ m: Int, _ d: ArraySlice<[UInt8]>, _ b: Bool) -> [[UInt8]] {
        if m == d.count { return b ? [] : [mth(d)] }
        let k = k(d.count)
        return m <= k ? subproof(m, d.prefix(k), b) + [mth(d.dropFirst(k))] : subproof(m - k, d.dropFirst(k), false) + [mth(d.prefix(k))]
    }
}

@Suite("Merkle tree (RFC 6962)")
struct MerkleTreeTests {
    /// The roots of the first 1 to 8 leaves of the test data of Certificate
    /// Transparency's reference implementation (merkle_tree_test.cc; the
    /// same vectors are in Trillian's and Go's tests).
    @Test func certificateTransparencyVectors() {
        let leaves = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"]
            .map { hex in stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16) ?? 0 } }
        let roots = [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
        ]
        for n in 1...8 {
            #expect(MerkleTree.root(leafHashes: leaves.prefix(n).map { MerkleTree.leafHash($0) }).hex == roots[n - 1], "size \(n)")
        }
        #expect(MerkleTree.emptyRoot.hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// Leaf data as the log makes it: 32-byte digests.
    static let data: [[UInt8]] = (0..<70).map { SHA256.hash(Array("line \($0)".utf8)).bytes }

    /// Every size from 1 to 70: the root, every index's inclusion proof and
    /// every consistency proof, by the streaming code and by the stored
    /// levels, against the model; and the verification loops accept each
    /// proof and refuse it with any hash changed, a hash missing or one too many.
    @Test func everySizeIndexAndPairUpTo70() throws {
        let leaves = Self.data.map { MerkleTree.leafHash($0) }
        for n in 1...70 {
            let d = Self.data.prefix(n)
            let root = RFC6962Model.mth(d)
            #expect(MerkleTree.root(leafHashes: leaves.prefix(n)).bytes == root, "size \(n)")
            let levels = MerkleLevels(leafHashes: Array(leaves.prefix(n)))
            #expect(levels.root.bytes == root)
            for m in 0..<n {
                let expected = RFC6962Model.path(m, d)
                var streamed = SubtreeHashes(subtrees: MerkleTree.inclusionSubtrees(index: m, size: n), size: n)
                for leaf in leaves { streamed.add(leaf) }   // past the size too, as a longer log feeds it
                #expect(streamed.hashes.map(\.bytes) == expected, "path \(m) of \(n)")
                #expect(streamed.root.bytes == root)
                #expect(levels.inclusionProof(index: m).map(\.bytes) == expected)
                let proof = streamed.hashes
                #expect(MerkleTree.root(fromInclusionProof: proof, leafHash: leaves[m], index: m, size: n)?.bytes == root)
                for i in proof.indices {
                    var bad = proof
                    bad[i] = SHA256.hash(bad[i].bytes)
                    #expect(MerkleTree.root(fromInclusionProof: bad, leafHash: leaves[m], index: m, size: n)?.bytes != root)
                }
                #expect(MerkleTree.root(fromInclusionProof: proof + [leaves[0]], leafHash: leaves[m], index: m, size: n) == nil)
                if !proof.isEmpty {
                    #expect(MerkleTree.root(fromInclusionProof: Array(proof.dropLast()), leafHash: leaves[m], index: m, size: n) == nil)
                }
                // Another leaf at this index, or this leaf at another index, does not lead to the root.
                #expect(MerkleTree.root(fromInclusionProof: proof, leafHash: leaves[(m + 1) % 70], index: m, size: n)?.bytes != root)
                if n > 1 {
                    #expect(MerkleTree.root(fromInclusionProof: proof, leafHash: leaves[m], index: (m + 1) % n, size: n)?.bytes != root)
                }
            }
            for old in 1...n {
                let expected = RFC6962Model.proof(old, d)
                var streamed = SubtreeHashes(subtrees: MerkleTree.consistencySubtrees(from: old, to: n), size: n)
                for leaf in leaves.prefix(n) { streamed.add(leaf) }
                #expect(streamed.hashes.map(\.bytes) == expected, "consistency \(old) to \(n)")
                let oldRoot = RFC6962Model.mth(Self.data.prefix(old))
                let oldDigest = try #require(SHA256.Digest(bytes: oldRoot))
                let proof = streamed.hashes
                let roots = MerkleTree.roots(fromConsistencyProof: proof, oldRoot: oldDigest, from: old, to: n)
                #expect(roots?.old.bytes == oldRoot && roots?.new.bytes == root, "consistency \(old) to \(n)")
                for i in proof.indices {
                    var bad = proof
                    bad[i] = SHA256.hash(bad[i].bytes)
                    let r = MerkleTree.roots(fromConsistencyProof: bad, oldRoot: oldDigest, from: old, to: n)
                    #expect(r == nil || r?.old.bytes != oldRoot || r?.new.bytes != root, "tampered \(i) of \(old) to \(n)")
                }
                #expect(MerkleTree.roots(fromConsistencyProof: proof + [leaves[0]], oldRoot: leaves[0], from: old, to: n) == nil)
            }
        }
    }
}
