import Events

/// The two reads that keep a record without a full decode of every line:
/// one learner's (`state --user`) and a fold of every learner's (`items`,
/// `leaderboard`; the report's is `ScannedLine+FoldEvents.swift`). Each line is checked with every rule either way,
/// with the same errors (``RecordFilter``, ``ScannedLine/checked(keeping:hasher:keep:)``).
extension ScannedLine {
    /// `.user(user)`: the line scanned once; another learner's line (its
    /// `user` captured without escapes, other bytes) only checked, as
    /// `verify` checks it; any other line decoded and kept when it is the
    /// learner's (``RecordFilter/keeps(_:)``), as before. See
    /// `LineCodec.checkRecord(_:keepingRecordOf:)`.
    func checked(keepingRecordOf user: [UInt8], hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        guard !isTooLong else { return decoded(keeping: .user(user), hasher: hasher, keep: keep) }
        do throws(EventError) {
            switch try LineCodec.checkRecord(bytes, keepingRecordOf: user) {
            case .other(let keys): return checked(keys, hasher: hasher)
            case .decoded(let record): return checked(record, keeping: .user(user), hasher: hasher, keep: keep)
            }
        } catch {
            return CheckedLine(number: number, offset: offset, length: length, problem: error.at(line: number))
        }
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
