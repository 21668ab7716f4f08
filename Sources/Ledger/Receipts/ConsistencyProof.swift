/// A proof that a log only appended between two signed checkpoints of it:
/// the RFC 6962 consistency proof (2.1.2) from the older tree to the newer,
/// one base64 hash per line in the RFC's order (the deepest first). Empty
/// when the sizes are equal or the older tree is empty.
///
/// An auditor who kept yesterday's checkpoint checks today's against it
/// with this proof alone, without reading the log.
public struct ConsistencyProof: Sendable, Hashable {
    /// The hashes.
    public var hashes: [SHA256.Digest]

    /// A proof of `hashes`.
    public init(hashes: [SHA256.Digest]) { self.hashes = hashes }

    /// Reads a proof file's bytes: base64 hashes, one per line.
    public init(parsing bytes: [UInt8], path: String) throws(ReceiptError) {
        var hashes: [SHA256.Digest] = []
        guard bytes.isEmpty || bytes.last == 0x0A else {
            throw ReceiptError(.malformed, path: path, line: bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }, "the last line has no newline")
        }
        let lines = bytes.isEmpty ? [] : bytes.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false)
        for (k, line) in lines.enumerated() {
            guard let decoded = Base64.decode(String(decoding: line, as: UTF8.self)), let hash = SHA256.Digest(bytes: decoded) else {
                throw ReceiptError(.malformed, path: path, line: k + 1, "not the base64 of a 32-byte hash")
            }
            hashes.append(hash)
        }
        self.hashes = hashes
    }

    /// Reads the proof in the file at `path`.
    public init(contentsOf path: String) throws(ReceiptError) {
        try self.init(parsing: try NoteName.readBytes(path), path: path)
    }

    /// The proof as a file holds it.
    public var encoded: [UInt8] { Array(hashes.map { Base64.encode($0.bytes) + "\n" }.joined().utf8) }

    /// Checks that the log `verifier` signs only appended from `old` to
    /// `new`: both checkpoints' signatures (``ReceiptError/Kind/key``,
    /// ``ReceiptError/Kind/signature``); their origin, which must be `origin`
    /// when given and is the same for both (``ReceiptError/Kind/origin``);
    /// their sizes (``ReceiptError/Kind/size``: the old not larger); the number of
    /// hashes (``ReceiptError/Kind/path``); and the roots the hashes lead to
    /// (``ReceiptError/Kind/root``). `paths` name the proof and the two
    /// checkpoint files in errors.
    public func check(from old: SignedCheckpoint, to new: SignedCheckpoint, verifier: NoteVerifier, origin: String?,
                      paths: (proof: String, old: String, new: String)) throws(ReceiptError) {
        try old.verify(with: verifier, origin: origin, path: paths.old)
        try new.verify(with: verifier, origin: origin ?? old.checkpoint.origin, path: paths.new)
        let (a, b) = (old.checkpoint, new.checkpoint)
        guard a.size <= b.size else {
            throw ReceiptError(.size, path: paths.old, "the old checkpoint's tree (\(a.size) lines) is larger than the new one's (\(b.size))")
        }
        if a.size == 0 {
            guard hashes.isEmpty else {
                throw ReceiptError(.path, path: paths.proof, "the proof from an empty tree is empty; it has \(hashes.count) hashes")
            }
            guard a.root == MerkleTree.emptyRoot else {
                throw ReceiptError(.root, path: paths.old, "the root of an empty tree is \(Base64.encode(MerkleTree.emptyRoot.bytes)), "
                                   + "not \(Base64.encode(a.root.bytes))")
            }
            return
        }
        guard let roots = MerkleTree.roots(fromConsistencyProof: hashes, oldRoot: a.root, from: a.size, to: b.size) else {
            let needed = MerkleTree.consistencySubtrees(from: a.size, to: b.size).count
            throw ReceiptError(.path, path: paths.proof, "the proof has \(hashes.count) hash\(hashes.count == 1 ? "" : "es"); "
                               + "from \(a.size) to \(b.size) lines it needs \(needed)")
        }
        guard roots.old == a.root else {
            throw ReceiptError(.root, path: paths.proof, "the proof leads to the old root \(Base64.encode(roots.old.bytes)), "
                               + "not the old checkpoint's \(Base64.encode(a.root.bytes))")
        }
        guard roots.new == b.root else {
            throw ReceiptError(.root, path: paths.proof, "the proof leads to the new root \(Base64.encode(roots.new.bytes)), "
                               + "not the new checkpoint's \(Base64.encode(b.root.bytes)): the log did not only append, or a hash was changed")
        }
    }
}
