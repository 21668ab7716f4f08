import Events

/// The two reads that keep a record without a full decode of every line:
/// one learner's (`state --user`) and a fold of every learner's (`items`,
/// `leaderboard`; the report's is `ScannedLine+FoldEvents.swift`). Each line is checked with every rule either way,
/// with the same errors (``RecordFilter``, ``ScannedLine/checked(keeping:hasher:keep:)``).
extension ScannedLine {
    /// `.user(user)`: the line checked by `verify`'s own check
    /// (`LineCodec.checkRecord(_:)`, as ``keyed(hasher:)`` reads it: the same
    /// code, the same errors), then, unless its keys say its `user` is surely
    /// another learner's (``LineCodec/RecordKeys/mayBe(_:in:)``), decoded whole
    /// and its record kept when it is the learner's (``RecordFilter/keeps(_:)``):
    /// another learner's line costs what it costs `verify` and one comparison
    /// of its `user`'s bytes, the learner's own line (and a `user` written with
    /// escapes, a newer-version line without one) a check and a decode.
    func checked(keepingRecordOf user: [UInt8], hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        let keys: LineCodec.RecordKeys
        do throws(EventError) {
            keys = try LineCodec.checkRecord(checkedLength())
        } catch {
            // A redaction stub never keeps the envelope's rules: looked for only here (see `keyed(hasher:)`).
            if let stub = checkedStub(hasher: hasher) { return stub }
            return CheckedLine(number: number, offset: offset, length: length, problem: error.at(line: number))
        }
        // The line keeps every rule: its decode finds the same (no error), and makes the record.
        if keys.mayBe(user, in: bytes) { return decoded(keeping: .user(user), hasher: hasher, keep: keep) }
        // Made where it is returned to (no copy of the ~190-byte line).
        return CheckedLine(self, keys: keys, hasher: hasher)
    }

    /// `.allForFold`: the line checked as ``checkedKeys(data:hasher:)``
    /// checks it (a stub first), its record made but for the envelope's
    /// text (`id`, `at`'s text, `device`, `prev` left empty), `user` made
    /// from the line's bytes: what a fold of every learner reads is whose
    /// event it is, when (`at`'s instant and day), its `seq` and what happened.
    func checkedForFold(hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        let (line, user, record) = checkedKeys(data: true, hasher: hasher)
        guard let record else { return line }
        switch consume record {
        case .event(var e):
            if let user { e.user = user.string(in: bytes) }
            keep(.event(e))
        case let newer:
            keep(newer)
        }
        return line
    }
}

extension LineCodec.RecordKeys {
    /// Whether the line these keys were read from (`line`) may be the
    /// learner's whose UTF-8 bytes are `user`: false only when its `user` is
    /// a string written without escapes (its bytes are its value) and those
    /// bytes are not `user`'s. Bytes, so code points, never `String ==`. A
    /// `user` written with escapes, or none (a newer-version line), may be:
    /// the record decides (``RecordFilter/keeps(_:)``).
    @inline(__always)
    func mayBe(_ user: [UInt8], in line: UnsafeRawBufferPointer) -> Bool {
        guard case .bytes(let written)? = self.user else { return true }
        let count = user.count
        guard written.count == count else { return false }
        // From the last byte back: learners' ids of one form and length
        // (`u-655`, `u-123`) mostly differ at their end.
        let start = written.lowerBound
        return user.withUnsafeBytes { mine in
            var k = count
            while k > 0 {
                k &-= 1
                if mine[k] != line[start &+ k] { return false }
            }
            return true
        }
    }
}
