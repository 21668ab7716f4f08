/// The snapshot file's bytes. All integers are little-endian.
///
/// | bytes | field |
/// |---|---|
/// | 8 | magic `89 50 4C 53 4E 41 50 0A` (`\x89PLSNAP\n`) |
/// | 4 | format version (``Snapshot/formatVersion``) |
/// | 8 + 8 | the log's device and inode |
/// | 8 | the byte offset after line `seq` |
/// | 8 | `seq`, the head's line |
/// | 32 | the head's SHA-256 |
/// | 8 | lines with `v` > 1 up to the head |
/// | 8 + n | the key's length and UTF-8 |
/// | 8 + n | the selected lines' length and bytes (each line ended by its LF) |
/// | 8 + 8n | the number of id digests (= `seq`) and the digests, ascending |
/// | 8 | XXH64 of every byte before it |
extension Snapshot {
    /// The first 8 bytes of every snapshot file (not valid UTF-8, so never mistaken for a log).
    static let magic: [UInt8] = [0x89, 0x50, 0x4C, 0x53, 0x4E, 0x41, 0x50, 0x0A]

    /// The file's bytes.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        write { (piece: UnsafeRawBufferPointer) in out.append(contentsOf: piece) }
        return out
    }

    /// Hands the file's bytes to `sink` in order, in pieces (the id digests
    /// are streamed, never copied whole), ending with the checksum.
    func write<E: Error>(_ sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let key = Array(self.key.utf8)
        var head: [UInt8] = []
        head.reserveCapacity(8 + 4 + 8 * 5 + 32 + 8 + 8 + key.count + 8)
        head.append(contentsOf: Snapshot.magic)
        append(UInt32(Snapshot.formatVersion), to: &head)
        append(resumePoint.file.device, to: &head)
        append(resumePoint.file.inode, to: &head)
        append(UInt64(resumePoint.offset), to: &head)
        append(UInt64(resumePoint.head.seq), to: &head)
        head.append(contentsOf: resumePoint.head.sha256.bytes)
        append(UInt64(resumePoint.newerVersionLines), to: &head)
        append(UInt64(key.count), to: &head)
        head.append(contentsOf: key)
        append(UInt64(lines.count), to: &head)
        var idCount: [UInt8] = []
        append(UInt64(resumePoint.ids.count), to: &idCount)

        var sum = XXH64.Streaming()
        func emit(_ bytes: UnsafeRawBufferPointer) throws(E) {
            sum.update(bytes)
            try sink(bytes)
        }
        func emit(_ bytes: [UInt8]) throws(E) {
            try bytes.withUnsafeBytes { raw in Result { () throws(E) in try emit(raw) } }.get()
        }
        try emit(head)
        try emit(lines)
        try emit(idCount)
        try resumePoint.ids.forEachChunk { (raw) throws(E) in try emit(raw) }
        var trailer: [UInt8] = []
        append(sum.finalize(), to: &trailer)
        try trailer.withUnsafeBytes { raw in Result { () throws(E) in try sink(raw) } }.get()
    }

    private func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    /// Reads a snapshot file's bytes; anything that is not a whole, undamaged snapshot of this format is refused.
    init(decoding bytes: [UInt8]) throws(SnapshotRejection) {
        let result: Result<Snapshot, SnapshotRejection> = bytes.withUnsafeBytes { raw in
            var reader = FieldReader(raw)
            return Result { () throws(SnapshotRejection) -> Snapshot in try Snapshot.decode(&reader, file: bytes) }
        }
        self = try result.get()
    }

    private static func decode(_ r: inout FieldReader, file: [UInt8]) throws(SnapshotRejection) -> Snapshot {
        let size = file.count
        func garbled(_ why: String) -> SnapshotRejection { SnapshotRejection(.garbled, "it is damaged: \(why)") }
        guard size >= magic.count, r.bytes(magic.count).elementsEqual(magic) else {
            throw SnapshotRejection(.garbled, "it is not a snapshot file (it does not start with the snapshot mark)")
        }
        guard let version = r.integer(UInt32.self) else { throw garbled("it ends after \(size) bytes") }
        guard Int(version) == formatVersion else {
            throw SnapshotRejection(Int(version) > formatVersion ? .newerFormat : .olderFormat,
                                    "it is in snapshot format \(version), and this version reads only format \(formatVersion)")
        }
        guard size >= magic.count + 4 + 8 else { throw garbled("it ends after \(size) bytes") }
        let sum = r.raw.loadUnaligned(fromByteOffset: size - 8, as: UInt64.self)
        guard UInt64(littleEndian: sum) == XXH64.hash(UnsafeRawBufferPointer(rebasing: r.raw[..<(size - 8)])) else {
            throw garbled("its checksum does not match its \(size) bytes (cut short, or changed)")
        }
        r.end = size - 8
        guard let device = r.integer(UInt64.self), let inode = r.integer(UInt64.self),
              let offset = r.count(), let seq = r.count() else { throw garbled("its header is cut short") }
        let digestBytes = Array(r.bytes(32))
        guard digestBytes.count == 32, let newer = r.count() else { throw garbled("its header is cut short") }
        guard let keyLength = r.count() else { throw garbled("its key is cut short") }
        let keyBytes = r.bytes(keyLength)
        guard keyBytes.count == keyLength, let linesLength = r.count() else { throw garbled("its key is cut short") }
        let lines = r.bytes(linesLength)
        guard lines.count == linesLength, let idCount = r.count() else { throw garbled("its lines are cut short") }
        guard idCount == seq, idCount <= r.remaining / 8, r.remaining == 8 * idCount else {
            throw garbled("it holds \(idCount) id digests in \(r.remaining) bytes for \(seq) lines")
        }
        guard let ids = IDDigests(littleEndian: file, start: r.position, count: idCount) else {
            throw garbled("its id digests are cut short")
        }

        var words: [UInt32] = []
        for i in 0..<8 {
            words.append(UInt32(digestBytes[4 * i]) << 24 | UInt32(digestBytes[4 * i + 1]) << 16
                         | UInt32(digestBytes[4 * i + 2]) << 8 | UInt32(digestBytes[4 * i + 3]))
        }
        let digest = SHA256.Digest(words[0], words[1], words[2], words[3], words[4], words[5], words[6], words[7])
        guard newer <= seq, (seq == 0) == (offset == 0), seq > 0 || digest == .zero, seq <= offset / 2 else {
            throw garbled("its position is inconsistent (line \(seq) ending at byte \(offset))")
        }
        let resumePoint = ResumePoint(file: FileIdentity(device: device, inode: inode), offset: offset,
                                       head: Head(seq: seq, sha256: digest), newerVersionLines: newer, ids: ids)
        return Snapshot(resumePoint: resumePoint, key: String(decoding: keyBytes, as: UTF8.self), lines: Array(lines))
    }
}

/// Reads the fields of a snapshot file in order, never past `end`.
private struct FieldReader {
    let raw: UnsafeRawBufferPointer
    var position = 0
    var end: Int

    init(_ raw: UnsafeRawBufferPointer) { self.raw = raw; end = raw.count }

    var remaining: Int { end - position }

    /// The next `n` bytes, or fewer at the end.
    mutating func bytes(_ n: Int) -> UnsafeRawBufferPointer.SubSequence {
        let k = max(0, min(n, remaining))
        defer { position += k }
        return raw[position..<(position + k)]
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        guard remaining >= MemoryLayout<T>.size else { return nil }
        defer { position += MemoryLayout<T>.size }
        return T(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: T.self))
    }

    /// A 64-bit count or offset that fits an `Int` (and this file).
    mutating func count() -> Int? {
        guard let v = integer(UInt64.self), v <= UInt64(Int.max) else { return nil }
        return Int(v)
    }
}
