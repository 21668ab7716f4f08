extension LineCodec {
    /// Checks a stored line as ``checkRecord(_:)`` does and, unless
    /// `isOther` says from its `user` that nobody wants it, hands `body` its
    /// record as ``decodeRecord(_:)-(UnsafeRawBufferPointer)`` makes it, made
    /// from the same scan: one walk of the line either way. For a reader
    /// that keeps one learner's records (`state --user`): another learner's
    /// line costs what ``checkRecord(_:)`` costs, the learner's own line what
    /// ``decodeRecord(_:)-(UnsafeRawBufferPointer)`` costs.
    ///
    /// `isOther` is asked before any rule is applied, with the line's `user`
    /// as written: its bytes (`.bytes`) when it is a string written without
    /// escapes, else nil (escaped, absent, or not a string: never surely
    /// another's). Its answer changes only whether the record is made: both
    /// ways apply every rule in the decoder's order, so a line that breaks
    /// one throws the same error (and `body` is not called).
    package static func checkRecord(_ line: UnsafeRawBufferPointer, recordUnless isOther: (RecordKeys.Text?) -> Bool,
                                    _ body: (consuming Record) -> Void) throws(EventError) -> RecordKeys {
        try LineDecoder.keys(line, recordUnless: isOther, body)
    }
}

extension LineDecoder {
    /// ``LineCodec/checkRecord(_:recordUnless:_:)``: ``keys(_:writersWalk:)``
    /// and, when wanted, ``record(_:known:writersWalk:)``'s record, on one
    /// scan of the line (a scan does not depend on which strings the rules
    /// make, ``materialize``).
    static func keys(_ line: UnsafeRawBufferPointer, recordUnless isOther: (LineCodec.RecordKeys.Text?) -> Bool,
                     _ body: (consuming Record) -> Void) throws(EventError) -> LineCodec.RecordKeys {
        if let problem = LineChecks.lengthProblem(line) { throw problem }
        // The writer's walk in place, as `keys(_:writersWalk:)` does it.
        var decoder = LineDecoder(line)
        decoder.materialize = false
        decoder.materializeData = false
        var e = EnvelopeCapture()
        guard decoder.scanWritersLine(into: &e) else { return try generalKeys(line, recordUnless: isOther, body) }
        if isOther(e.writtenUser) { return try decoder.keys(e, writers: true) }
        return try decoder.wholeKeys(e, body)
    }

    /// ``keys(_:recordUnless:_:)`` by the general walk.
    @inline(never)
    private static func generalKeys(_ line: UnsafeRawBufferPointer, recordUnless isOther: (LineCodec.RecordKeys.Text?) -> Bool,
                                    _ body: (consuming Record) -> Void) throws(EventError) -> LineCodec.RecordKeys {
        let (decoder, e, _) = try scan(line, materialize: false, data: false, writersWalk: false)
        if isOther(e.writtenUser) { return try decoder.keyed(e).keys }
        return try decoder.wholeKeys(e, body)
    }

    /// The keys of the scanned line `e`, its record (made with every string,
    /// as ``record(_:)`` makes it) handed to `body`.
    @inline(never)
    private func wholeKeys(_ e: borrowing EnvelopeCapture, _ body: (consuming Record) -> Void) throws(EventError) -> LineCodec.RecordKeys {
        var whole = self
        whole.materialize = true
        whole.materializeData = true
        let (keys, record) = try whole.keyed(copy e)
        body(record)
        return keys
    }
}

extension LineDecoder.EnvelopeCapture {
    /// Where `user` is when it is a string written without escapes (its
    /// bytes are its value); nil for anything else.
    @inline(__always) var writtenUser: LineCodec.RecordKeys.Text? {
        let user = self[.user]
        return user.kind == .string && !user.flag ? .bytes(user.start..<user.end) : nil
    }
}
