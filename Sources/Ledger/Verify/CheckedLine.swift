import CSHA256
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
    /// Whether the line breaks the format (``problem`` is not nil).
    var hasProblem: Bool { failure != nil }
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
        // A redaction stub: looked for first where the line is decoded whole (`.all`;
        // `checkedKeys` for `.allForFold`), and only when the check fails elsewhere.
        if case .allForFold = filter { return checkedForFold(hasher: hasher, keep: keep) }
        switch filter {
        case .all, .allForFold:
            if let stub = checkedStub(hasher: hasher) { return stub }
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
        line.idHash = hasher.hash(line.id)
        if filter.keeps(r) {
            line.hasRecord = true
            keep(r)
        }
        return line
    }

    /// The line checked, its record not made: `verify`'s check (`LineCodec.checkRecord`).
    ///
    /// A redaction stub (``checkedStub(hasher:)``) is looked for only when
    /// the check fails: a stub never keeps the envelope's rules (it has no
    /// `id`, `at`, `user`, `type` or `data`), so trying the check first
    /// gives every line the same answer as trying the stub first, and
    /// spares the other lines the stub's test.
    private func keyed(hasher: IDHasher) -> CheckedLine {
        let keys: LineCodec.RecordKeys
        do throws(EventError) {
            keys = try LineCodec.checkRecord(checkedLength())
        } catch {
            if let stub = checkedStub(hasher: hasher) { return stub }
            return CheckedLine(number: number, offset: offset, length: length, problem: error.at(line: number))
        }
        return checked(keys, hasher: hasher)
    }

    /// Decodes, checks and hashes the line as ``checked(keeping:hasher:keep:)``
    /// does (a stub, then the same rules and errors; the answer is the same in either order), keeping its
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
    @inline(__always)
    func checked(_ keys: LineCodec.RecordKeys, hasher: IDHasher) -> CheckedLine {
        CheckedLine(self, keys: keys, hasher: hasher)
    }
}

extension CheckedLine {
    /// `line` as its keys say, hashed: ``ScannedLine/checked(_:hasher:)``.
    /// An initializer, so that the ~190 bytes are written where they are
    /// returned to, not built aside and copied; it sets the members itself
    /// (delegating to ``init(number:offset:length:problem:)`` built the line
    /// in a temporary and copied all of it, with an outlined copy and destroy).
    /// `hasRecord`: whether the reader kept the line's record. Inlined
    /// into each check, so that the line can be built in its chunk's slot.
    @inline(__always)
    init(_ line: ScannedLine, keys: LineCodec.RecordKeys, hasher: IDHasher, hasRecord: Bool = false) {
        number = line.number
        offset = line.offset
        length = line.length
        self.hasRecord = hasRecord
        seq = keys.seq
        switch keys.id {
        // A valid id is 1 to 64 bytes: it always fits (else the line's id stays empty).
        case .bytes(let range): _ = id.assign(UnsafeRawBufferPointer(rebasing: line.bytes[range]))
        case .text(let text): id = LineID(text) ?? LineID()
        }
        isNewer = keys.isNewer
        switch keys.prev {
        case .bytes(let range): prev = SHA256.Digest(lowercaseHex: UnsafeRawBufferPointer(rebasing: line.bytes[range])) ?? .zero
        case .text(let text): prev = SHA256.Digest(hex: text) ?? .zero
        }
        digest = line.digest
        idHash = hasher.hash(id)
    }
}

extension SHA256.Digest {
    /// A record's `prev` as a digest.
    ///
    /// The decoder has checked it is 64 lowercase hex digits, so this reads
    /// them sixteen at a time; anything else goes to ``init(hex:)``.
    init?(prevOf record: borrowing Record) {
        var text = record.prev
        guard let digest = text.withUTF8({ SHA256.Digest(lowercaseHex: UnsafeRawBufferPointer($0)) })
                ?? SHA256.Digest(hex: record.prev) else { return nil }
        self = digest
    }

    /// 64 lowercase hex digits as a digest, read sixteen at a time
    /// (`pl_lowercase_hex32`); nil for anything else.
    @inline(__always)
    init?(lowercaseHex raw: UnsafeRawBufferPointer) {
        guard raw.count == 64, let hex = raw.baseAddress else { return nil }
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            guard let to = out.baseAddress else { return false }
            return pl_lowercase_hex32(hex.assumingMemoryBound(to: UInt8.self), to.assumingMemoryBound(to: UInt8.self)) != 0
        }
        guard ok else { return nil }
        self.init(inMemoryOrder: bytes)
    }
}
