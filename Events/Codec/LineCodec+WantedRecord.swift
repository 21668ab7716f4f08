extension LineCodec {
    /// Checks a stored line as ``checkRecord(_:)`` does and, unless
    /// `isOther` says from its `user` that nobody wants it, makes its record
    /// as ``decodeRecord(_:)-(UnsafeRawBufferPointer)`` makes it, from the
    /// same scan: one walk of the line either way. For a reader that keeps
    /// one learner's records (`state --user`): another learner's line costs
    /// what ``checkRecord(_:)`` costs, the learner's own line what
    /// ``decodeRecord(_:)-(UnsafeRawBufferPointer)`` costs.
    ///
    /// `isOther` is asked before any rule is applied, with the line's `user`
    /// as written: its bytes (`.bytes`) when it is a string written without
    /// escapes, else nil (escaped, absent, or not a string: never surely
    /// another's). Which it answers changes only whether the record is made:
    /// both ways apply every rule in the decoder's order, so the line's
    /// error, when it breaks one, is the same.
    package static func checkRecord(_ line: UnsafeRawBufferPointer, recordUnless isOther: (RecordKeys.Text?) -> Bool)
        throws(EventError) -> (keys: RecordKeys, record: Record?) {
        try LineDecoder.keys(line, recordUnless: isOther)
    }
}

extension LineDecoder {
    /// ``LineCodec/checkRecord(_:recordUnless:)``: ``keys(_:writersWalk:)``
    /// or ``record(_:known:writersWalk:)`` on one scan of the line (the
    /// scan does not depend on which strings the rules make).
    static func keys(_ line: UnsafeRawBufferPointer, recordUnless isOther: (LineCodec.RecordKeys.Text?) -> Bool)
        throws(EventError) -> (keys: LineCodec.RecordKeys, record: Record?) {
        if let problem = LineChecks.lengthProblem(line) { throw problem }
        // The writer's walk in place, as `keys(_:writersWalk:)` does it.
        var decoder = LineDecoder(line)
        decoder.materialize = false
        decoder.materializeData = false
        var e = EnvelopeCapture()
        guard decoder.scanWritersLine(into: &e) else { return try generalKeys(line, recordUnless: isOther) }
        return try decoder.keys(e, writers: true, recordUnless: isOther)
    }

    /// ``keys(_:recordUnless:)`` by the general walk.
    @inline(never)
    private static func generalKeys(_ line: UnsafeRawBufferPointer, recordUnless isOther: (LineCodec.RecordKeys.Text?) -> Bool)
        throws(EventError) -> (keys: LineCodec.RecordKeys, record: Record?) {
        let (decoder, e, _) = try scan(line, materialize: false, data: false, writersWalk: false)
        return try decoder.keys(e, writers: false, recordUnless: isOther)
    }

    /// The keys of the scanned line `e` (``keys(_:writers:)``) when `isOther`
    /// says its `user` is another's, else its keys and record made with
    /// every string (``keyed(_:)`` as ``record(_:)`` makes it).
    @inline(__always)
    private func keys(_ e: EnvelopeCapture, writers: Bool, recordUnless isOther: (LineCodec.RecordKeys.Text?) -> Bool)
        throws(EventError) -> (keys: LineCodec.RecordKeys, record: Record?) {
        let user = e[.user]
        if isOther(user.kind == .string && !user.flag ? .bytes(user.start..<user.end) : nil) {
            return (try keys(e, writers: writers), nil)
        }
        var whole = self
        whole.materialize = true
        whole.materializeData = true
        let (keys, record) = try whole.keyed(e)
        return (keys, record)
    }
}
