import Events

/// The two reads that keep a record without a full decode of every line:
/// one learner's (`state --user`) and a fold of every learner's (`items`,
/// `leaderboard`; the report's is `ScannedLine+FoldEvents.swift`). Each line is checked with every rule either way,
/// with the same errors (``RecordFilter``, ``ScannedLine/checked(keeping:hasher:keep:)``).
extension ScannedLine {
    /// `.user(user)`: the line checked by `verify`'s own check, and its
    /// record made from the same scan unless its `user` is surely another
    /// learner's (its bytes as written are not `user`'s, compared by
    /// `LineCodec.checkRecord(_:recordOf:_:)` before the rules): another
    /// learner's line costs what it costs `verify`, the learner's own line
    /// (and a `user` written with escapes, a newer-version line without one)
    /// what a decode costs, read once; the record is kept when it is the
    /// learner's (``RecordFilter/keeps(_:)``).
    func checked(keepingRecordOf user: [UInt8], hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        guard !isTooLong else { return decoded(keeping: .user(user), hasher: hasher, keep: keep) }
        var kept = false
        let keys: LineCodec.RecordKeys
        do throws(EventError) {
            // The filter is made only for a record made (a few lines), not
            // for each line of another learner.
            keys = try LineCodec.checkRecord(bytes, recordOf: user) { record in
                guard RecordFilter.user(user).keeps(record) else { return }
                kept = true
                keep(record)
            }
        } catch {
            // A redaction stub never keeps the envelope's rules: looked for only here (see `keyed(hasher:)`).
            if let stub = checkedStub(hasher: hasher) { return stub }
            return CheckedLine(number: number, offset: offset, length: length, problem: error.at(line: number))
        }
        // Made where it is returned to (no copy of the ~190-byte line).
        return CheckedLine(self, keys: keys, hasher: hasher, hasRecord: kept)
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
