extension LineCodec {
    /// A stored line checked for one learner's read (`state --user`): what
    /// ``checkRecord(_:keepingRecordOf:)`` found.
    package enum UserLine {
        /// Another learner's line: its `user`, written without escapes, has
        /// other bytes. Only checked, as ``checkRecord(_:)`` checks it.
        case other(RecordKeys)
        /// A line that may be the learner's (their `user`, one written with
        /// escapes, or none), decoded as ``decodeRecord(_:)-(UnsafeRawBufferPointer)``
        /// decodes it.
        case decoded(Record)
    }

    /// Checks a stored line exactly as ``decodeRecord(_:)-(UnsafeRawBufferPointer)``
    /// does (same rules, same order, same errors), scanning it once, and
    /// makes its record only when it may be the line of the learner whose
    /// UTF-8 bytes are `user`: the `user` the scan captured is compared
    /// with them before any rule runs (no look at the line before the
    /// scan). Another learner's line is then checked
    /// with its record not made, as ``checkRecord(_:)`` checks it (the
    /// second stage, when the line is the writer's).
    package static func checkRecord(_ line: UnsafeRawBufferPointer, keepingRecordOf user: [UInt8]) throws(EventError) -> UserLine {
        let scan = try LineDecoder.scan(line, materialize: false, data: false, writersWalk: true)
        var decoder = scan.0
        let e = scan.1, written = e[.user]
        if written.kind == .string, !written.flag, !decoder.s.raw(written).elementsEqual(user) {
            return .other(try decoder.keys(e, writers: scan.writers))
        }
        // The scan does not depend on what is made: the same captures, every string made.
        decoder.materialize = true
        decoder.materializeData = true
        return .decoded(try decoder.record(e))
    }
}
