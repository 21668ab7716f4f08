import Events

/// A line checked by itself: decoded, hashed, and its `prev` read as a
/// digest. Everything here depends on the line alone, so readers make these
/// on several threads; ``ChainState`` then checks them in log order against
/// the lines before (seq, prev, ids).
///
/// Small and nearly plain bytes, because readers hand a few thousand from
/// thread to thread: the id is inline, the rare error boxed (the only
/// reference), and the record, when kept, travels beside it (see ``LineChunk``).
struct CheckedLine: Sendable {
    /// 1-based line number.
    var number: Int
    /// Byte offset of the line in the file.
    var offset: Int
    /// The line's length without its LF.
    var length: Int
    /// The record's `seq` (when the line decodes).
    var seq = 0
    /// The record's `id` (when the line decodes).
    var id = LineID()
    /// The record's `prev` as a digest (zero when the line does not decode).
    var prev = SHA256.Digest.zero
    /// The line's SHA-256 (zero when the line does not decode: it is then never used).
    var digest = SHA256.Digest.zero
    /// ``IDHasher`` hash of the id.
    var idHash: UInt64 = 0
    /// Whether it is a newer-version line (when it decodes).
    var isNewer = false
    /// Whether it is a redaction stub (``RedactedLine``): no record, its digest the erased line's.
    var isRedacted = false
    /// Whether the reader kept the line's record (it travels beside the line).
    var hasRecord = false
    /// Why the line breaks the format, boxed: most lines have none.
    private var failure: Failure?

    private final class Failure: Sendable {
        let error: EventError
        init(_ error: EventError) { self.error = error }
    }

    init(number: Int, offset: Int, length: Int, problem: EventError? = nil) {
        self.number = number; self.offset = offset; self.length = length
        failure = problem.map(Failure.init)
    }

    /// Why the line breaks the format, or nil when it decodes.
    var problem: EventError? { failure?.error }
}

/// Which records a checked line keeps.
enum RecordFilter: Sendable {
    /// Every record.
    case all
    /// Every record, for a fold of every learner that reads only whose, when
    /// and what (the question analysis, the leaderboard; the report of one
    /// log reads `FoldEvent`s instead, ``FoldEvents``): made
    /// but for the envelope's text other than `user` (see ``ScannedLine/checkedForFold(hasher:keep:)``).
    case allForFold
    /// None: the chain's keys are enough (verify).
    case none
    /// Records of this user (UTF-8 bytes, exactly, as `state --user` compares),
    /// and newer-version lines whose user cannot be read.
    case user([UInt8])

    func keeps(_ record: Record) -> Bool {
        switch self {
        case .all, .allForFold: true
        case .none: false
        case .user(let bytes): record.user.map { $0.utf8.elementsEqual(bytes) } ?? true
        }
    }

    /// Whether a valid line whose `user` its keys give as `written` is surely
    /// not the record of the learner whose UTF-8 bytes are `user`: its `user`
    /// is written without escapes (its bytes are its value) and they are
    /// other bytes. A `user` written with escapes, or none (a newer-version
    /// line), is not sure: decode the line and ask ``keeps(_:)``.
    @inline(__always)
    static func isOther(_ written: LineCodec.RecordKeys.Text?, than user: [UInt8], in line: UnsafeRawBufferPointer) -> Bool {
        guard case .bytes(let range)? = written else { return false }
        guard range.count == user.count else { return true }
        return user.withUnsafeBytes { mine in
            for k in 0..<mine.count where mine[k] != line[range.lowerBound &+ k] { return true }
            return false
        }
    }
}

extension ScannedLine {
    /// Decodes and hashes the line; keeps no record when `keepRecord` is false
    /// (the line is then only checked, as `verify` checks it).
    func checked(keepRecord: Bool) -> CheckedLine {
        checked(keeping: keepRecord ? .all : .none, hasher: IDHasher(), keep: { _ in })
    }

    /// Decodes and hashes the line; returns its record too (nil when it does not decode).
    func checkedWithRecord(hasher: IDHasher = IDHasher()) -> (CheckedLine, Record?) {
        var record: Record? = nil
        let line = checked(keeping: .all, hasher: hasher, keep: { record = $0 })
        return (line, record)
    }

    /// Decodes and hashes the line; hands the record to `keep` when `filter` says so.
    ///
    /// A line whose record will not be kept is only checked
    /// (`LineCodec.checkRecord`: the same rules and errors, no strings made):
    /// every line for `.none`; for `.user`, a line whose keys name another
    /// user's (``checked(keepingRecordOf:hasher:keep:)``).
    func checked(keeping filter: RecordFilter, hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        // `checkedKeys` looks for a stub first too.
        if case .allForFold = filter { return checkedForFold(hasher: hasher, keep: keep) }
        if let stub = checkedStub(hasher: hasher) { return stub }
        switch filter {
        case .all, .allForFold:
            return decoded(keeping: filter, hasher: hasher, keep: keep)
        case .none:
            return keyed(hasher: hasher)
        case .user(let user):
            return checked(keepingRecordOf: user, hasher: hasher, keep: keep)
        }
    }

    func decoded(keeping filter: RecordFilter, hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        switch decode() {
        case .failure(let e):
            return CheckedLine(number: number, offset: offset, length: length, problem: e)
        case .success(let r):
            return checked(r, keeping: filter, hasher: hasher, keep: keep)
        }
    }

    /// The line whose record is `r`, hashed; `r` handed to `keep` when `filter` says so.
    func checked(_ r: consuming Record, keeping filter: RecordFilter, hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        var line = CheckedLine(number: number, offset: offset, length: length)
        line.seq = r.seq
        // A valid id is at most 64 ASCII characters.
        line.id = LineID(r.id) ?? LineID()
        if case .newer = r { line.isNewer = true }
        // The decoder checked `prev` is 64 lowercase hex digits: it always reads as a digest.
        line.prev = SHA256.Digest(prevOf: r) ?? .zero
        line.digest = digest
        line.idHash = line.id.withBytes { hasher.hash($0) }
        if filter.keeps(r) {
            line.hasRecord = true
            keep(r)
        }
        return line
    }

    /// The line checked, its record not made: `verify`'s check (`LineCodec.checkRecord`).
    private func keyed(hasher: IDHasher) -> CheckedLine {
        let keys: LineCodec.RecordKeys
        do throws(EventError) {
            keys = try LineCodec.checkRecord(checkedLength())
        } catch {
            return CheckedLine(number: number, offset: offset, length: length, problem: error.at(line: number))
        }
        return checked(keys, hasher: hasher)
    }

    /// Decodes, checks and hashes the line as ``checked(keeping:hasher:keep:)``
    /// does (a stub first, then the same rules and errors), keeping its
    /// record (when `data`) with none of the envelope's strings made
    /// (``LineCodec/checkRecordKeepingData(_:)``); returns where its `user`
    /// is too (nil for a stub, a line that breaks the format or a
    /// newer-version line without one), for the caller to compare the user's
    /// bytes. For a reader that folds one learner's log on its own thread.
    func checkedKeys(data: Bool, hasher: IDHasher) -> (line: CheckedLine, user: LineCodec.RecordKeys.Text?, record: Record?) {
        if let stub = checkedStub(hasher: hasher) { return (stub, nil, nil) }
        do throws(EventError) {
            let bytes = try checkedLength()
            if data {
                let (keys, record) = try LineCodec.checkRecordKeepingData(bytes)
                var line = checked(keys, hasher: hasher)
                line.hasRecord = true
                return (line, keys.user, record)
            }
            let keys = try LineCodec.checkRecord(bytes)
            return (checked(keys, hasher: hasher), keys.user, nil)
        } catch {
            return (CheckedLine(number: number, offset: offset, length: length, problem: error.at(line: number)), nil, nil)
        }
    }

    /// The line's bytes, or the `line_too_long` error.
    func checkedLength() throws(EventError) -> UnsafeRawBufferPointer {
        guard !isTooLong else {
            throw EventError(.lineTooLong, "the line is \(length) bytes; at most \(LineCodec.maxLineLength) are allowed")
        }
        return bytes
    }

    /// The line as its keys say, hashed.
    func checked(_ keys: LineCodec.RecordKeys, hasher: IDHasher) -> CheckedLine {
        var line = CheckedLine(number: number, offset: offset, length: length)
        line.seq = keys.seq
        switch keys.id {
        case .bytes(let range): line.id = LineID(UnsafeRawBufferPointer(rebasing: bytes[range])) ?? LineID()
        case .text(let text): line.id = LineID(text) ?? LineID()
        }
        line.isNewer = keys.isNewer
        switch keys.prev {
        case .bytes(let range): line.prev = SHA256.Digest(lowercaseHex: UnsafeRawBufferPointer(rebasing: bytes[range])) ?? .zero
        case .text(let text): line.prev = SHA256.Digest(hex: text) ?? .zero
        }
        line.digest = digest
        line.idHash = line.id.withBytes { hasher.hash($0) }
        return line
    }
}

extension SHA256.Digest {
    /// A record's `prev` as a digest.
    ///
    /// The decoder has checked it is 64 lowercase hex digits, so this reads
    /// them eight at a time; anything else goes to ``init(hex:)``.
    init?(prevOf record: borrowing Record) {
        var text = record.prev
        guard let digest = text.withUTF8({ SHA256.Digest(lowercaseHex: UnsafeRawBufferPointer($0)) })
                ?? SHA256.Digest(hex: record.prev) else { return nil }
        self = digest
    }

    /// 64 lowercase hex digits as a digest, read eight at a time; nil for anything else.
    init?(lowercaseHex raw: UnsafeRawBufferPointer) {
        guard raw.count == 64 else { return nil }
        @inline(__always) func word(_ k: Int) -> UInt32? {
            SHA256.Digest.hexWord(raw.loadUnaligned(fromByteOffset: 8 &* k, as: UInt64.self))
        }
        guard let a = word(0), let b = word(1), let c = word(2), let d = word(3),
              let e = word(4), let f = word(5), let g = word(6), let h = word(7) else { return nil }
        self.init(a, b, c, d, e, f, g, h)
    }

    /// Eight lowercase hex digits (in memory order) as the 32-bit value they spell; nil if one is not `0-9a-f`.
    @inline(__always) static func hexWord(_ word: UInt64) -> UInt32? {
        let c = UInt64(littleEndian: word)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        guard c & high == 0 else { return nil }
        // For a byte b < 0x80, b + (0x80 - t) has its high bit set exactly when b >= t.
        @inline(__always) func atLeast(_ t: UInt64) -> UInt64 { c &+ ones &* (0x80 - t) }
        let digit = atLeast(0x30) & ~atLeast(0x3A) & high
        let letter = atLeast(0x61) & ~atLeast(0x67) & high
        guard digit | letter == high else { return nil }
        // Each byte's value: its low nibble, plus 9 for a letter.
        let n = (c & (ones &* 0x0F)) &+ (letter >> 7) &* 9
        // Bytes are in reading order (first digit lowest). Pair the digits
        // into bytes (first digit high), gather the four bytes, then put the
        // first one most significant.
        let pairs = (n << 4 | n >> 8) & 0x00FF_00FF_00FF_00FF
        let quads = (pairs | pairs >> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: quads | quads >> 16).byteSwapped
    }
}
