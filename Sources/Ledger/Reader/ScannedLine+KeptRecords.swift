import Events

/// The two reads that keep a record without a full decode of every line:
/// one learner's (`state --user`) and a fold of every learner's (`items`,
/// `leaderboard`; the report's is `ScannedLine+FoldEvents.swift`). Each line is checked with every rule either way,
/// with the same errors (``RecordFilter``, ``ScannedLine/checked(keeping:hasher:keep:)``).
extension ScannedLine {
    /// `.user(user)`: the line checked by `verify`'s own check
    /// (``keyed(hasher:otherwise:)``, `LineCodec.checkRecord`: the same
    /// rules, errors and cost); a line whose `user` is surely another
    /// learner's (``RecordFilter/isOther(_:than:in:)``) stops there, as in
    /// `verify`; any other line (the learner's, a `user` written with
    /// escapes, a newer-version line without one) is then decoded whole and
    /// kept when it is the learner's (``RecordFilter/keeps(_:)``). Only the
    /// learner's own lines, a few in a log of many learners, are read twice.
    func checked(keepingRecordOf user: [UInt8], hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        guard !isTooLong else { return decoded(keeping: .user(user), hasher: hasher, keep: keep) }
        return keyed(hasher: hasher) { keys in
            RecordFilter.isOther(keys.user, than: user, in: bytes) ? nil : decoded(keeping: .user(user), hasher: hasher, keep: keep)
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
