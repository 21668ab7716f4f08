import Events

/// A proof that one line is in a log, checkable offline by anyone with the
/// log's verifier key (C2SP `tlog-proof`): the line's zero-based index, the
/// inclusion proof (RFC 6962, 2.1.1: the leaf's sibling first), then, after
/// a blank line, the signed checkpoint of the tree it is in, verbatim.
///
/// ```
/// c2sp.org/tlog-proof@v1
/// index 41
/// gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=
/// B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=
///
/// school.example/progress
/// 6392
/// 3Bm7tFQQyQ1MfNv1hZ4p5Lx1wB5Cz3cUlZJ8qdh0yAA=
///
/// — school.example/progress Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe...
/// ```
///
/// The leaf is the line's SHA-256 (line `seq` is index `seq - 1`), so the
/// proof and the line's bytes together show the line is in the signed log;
/// the proof alone reveals nothing of the line nor of any other.
public struct InclusionProof: Sendable, Hashable {
    /// The line's zero-based index in the log (its `seq` - 1).
    public var index: Int
    /// The inclusion proof's hashes.
    public var hashes: [SHA256.Digest]
    /// The signed checkpoint of the tree the line is in.
    public var checkpoint: SignedCheckpoint
    /// Opaque extra data (`extra BASE64`), not authenticated; nil when absent.
    public var extra: [UInt8]?

    /// The first line of the format.
    public static let header = "c2sp.org/tlog-proof@v1"

    /// A proof of line `index` with `hashes` against `checkpoint`.
    public init(index: Int, hashes: [SHA256.Digest], checkpoint: SignedCheckpoint, extra: [UInt8]? = nil) {
        self.index = index; self.hashes = hashes; self.checkpoint = checkpoint; self.extra = extra
    }

    /// Reads a proof file's bytes (the form only: ``check(line:verifier:origin:path:)`` checks it).
    public init(parsing bytes: [UInt8], path: String) throws(ReceiptError) {
        var lines = ProofLines(bytes, path: path)
        guard lines.next() == Self.header else {
            throw ReceiptError(.malformed, path: path, line: 1, "a proof starts with the line \(Self.header)")
        }
        var line = lines.next()
        if let text = line, text.hasPrefix("extra ") {
            guard let data = Base64.decode(text.dropFirst(6)) else {
                throw ReceiptError(.malformed, path: path, line: lines.number, "the extra data is not base64")
            }
            extra = data
            line = lines.next()
        }
        guard let text = line, text.hasPrefix("index "), let index = ProofLines.decimal(text.dropFirst(6)) else {
            throw ReceiptError(.malformed, path: path, line: lines.number, "expected 'index N' (N in decimal, no leading zeros)")
        }
        self.index = index
        hashes = try lines.hashes()
        checkpoint = try SignedCheckpoint(parsing: lines.rest, path: path, firstLine: lines.number + 1)
    }

    /// Reads the proof in the file at `path`.
    public init(contentsOf path: String) throws(ReceiptError) {
        try self.init(parsing: try NoteName.readBytes(path), path: path)
    }

    /// The proof as a file holds it.
    public var encoded: [UInt8] {
        var text = Self.header + "\n"
        if let extra { text += "extra \(Base64.encode(extra))\n" }
        text += "index \(index)\n"
        for hash in hashes { text += Base64.encode(hash.bytes) + "\n" }
        return Array((text + "\n").utf8) + checkpoint.encoded
    }

    /// Checks that `line` (a line's bytes, without its LF) is in the log
    /// `verifier` signs: the checkpoint's signature (``ReceiptError/Kind/key``,
    /// ``ReceiptError/Kind/signature``), its origin when `origin` is given
    /// (``ReceiptError/Kind/origin``), the index within its size
    /// (``ReceiptError/Kind/size``), the number of hashes
    /// (``ReceiptError/Kind/path``), and the root the line and the hashes lead
    /// to (``ReceiptError/Kind/root``). Returns the checkpoint.
    @discardableResult
    public func check(line: [UInt8], verifier: NoteVerifier, origin: String?, path: String) throws(ReceiptError) -> Checkpoint {
        try checkpoint.verify(with: verifier, origin: origin, path: path)
        let tree = checkpoint.checkpoint
        guard index < tree.size else {
            throw ReceiptError(.size, path: path, "index \(index) is not in the checkpoint's tree of \(tree.size) line\(tree.size == 1 ? "" : "s")")
        }
        let leaf = MerkleTree.leafHash(lineDigest: line.withUnsafeBytes { LineDigest.of($0) })
        guard let root = MerkleTree.root(fromInclusionProof: hashes, leafHash: leaf, index: index, size: tree.size) else {
            let needed = MerkleTree.inclusionProofLength(index: index, size: tree.size)
            throw ReceiptError(.path, path: path, "the proof has \(hashes.count) hash\(hashes.count == 1 ? "" : "es"); "
                               + "index \(index) in a tree of \(tree.size) needs \(needed)")
        }
        guard root == tree.root else {
            throw ReceiptError(.root, path: path, "the line and the proof's hashes lead to the root \(Base64.encode(root.bytes)), "
                               + "not the checkpoint's \(Base64.encode(tree.root.bytes)): the line or a hash is not the one the log holds")
        }
        return tree
    }
}

extension InclusionProof {
    /// The line a file at `path` holds, as a proof checks it: its bytes
    /// without the LF that may end it (`sed -n 42p LOG > line` and the
    /// `SEQ.jsonl` files of `export --receipts` both work). An empty file, or
    /// one holding more than one line or a CR, is refused.
    public static func line(contentsOf path: String) throws(ReceiptError) -> [UInt8] {
        var bytes: [UInt8]
        do { bytes = try SmallFile.read(path, limit: LineCodec.maxLineLength + 1) } catch { throw ReceiptError(reading: error) }
        if bytes.last == 0x0A { bytes.removeLast() }
        guard !bytes.isEmpty, !bytes.contains(0x0A), !bytes.contains(0x0D) else {
            throw ReceiptError(.malformed, path: path, "a line file holds exactly one line of the log (its LF optional), without CR")
        }
        return bytes
    }
}

/// The lines of a proof file, read one at a time up to its blank line.
struct ProofLines {
    private let bytes: [UInt8]
    private let path: String
    private var position = 0
    /// The 1-based number of the line last read.
    private(set) var number = 0

    init(_ bytes: [UInt8], path: String) { self.bytes = bytes; self.path = path }

    /// The next line without its newline; nil at the end of the bytes or a line without a newline.
    mutating func next() -> String? {
        guard let end = bytes[position...].firstIndex(of: 0x0A) else { return nil }
        defer { position = end + 1; number += 1 }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }

    /// The base64 hashes up to the blank line, which is read too.
    mutating func hashes() throws(ReceiptError) -> [SHA256.Digest] {
        var hashes: [SHA256.Digest] = []
        while true {
            guard let line = next() else {
                throw ReceiptError(.malformed, path: path, line: number + 1, "the proof's hashes end with a blank line")
            }
            if line.isEmpty { return hashes }
            guard let bytes = Base64.decode(line), let hash = SHA256.Digest(bytes: bytes) else {
                throw ReceiptError(.malformed, path: path, line: number, "not the base64 of a 32-byte hash")
            }
            hashes.append(hash)
        }
    }

    /// The bytes after the lines read.
    var rest: [UInt8] { Array(bytes[position...]) }

    /// A decimal number without leading zeros (or `0`); nil otherwise.
    static func decimal(_ text: some StringProtocol) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), digits.first != 0x30 || digits.count == 1 else { return nil }
        return Int(text)
    }
}
