extension LineCodec {
    /// Checks a stored line as ``checkRecord(_:)`` does and, unless its
    /// `user` is surely another learner's than the one whose UTF-8 bytes are
    /// `user`, hands `body` its record as ``decodeRecord(_:)-(UnsafeRawBufferPointer)``
    /// makes it, made from the same scan: one walk of the line either way.
    /// For a reader that keeps one learner's records (`state --user`):
    /// another learner's line costs what ``checkRecord(_:)`` costs, the
    /// learner's own line what ``decodeRecord(_:)-(UnsafeRawBufferPointer)`` costs.
    ///
    /// Whose the line surely is not is decided before any rule is applied,
    /// from the line's `user` as written: a string written without escapes
    /// (its bytes are its value) whose bytes are not `user`'s. Bytes, so code
    /// points, never `String ==`. A `user` written with escapes, absent, or
    /// not a string is never surely another's: the record is made, and the
    /// caller decides from it. The answer changes only whether the record is
    /// made: both ways apply every rule in the decoder's order, so a line that
    /// breaks one throws the same error (and `body` is not called).
    package static func checkRecord(_ line: UnsafeRawBufferPointer, recordOf user: [UInt8],
                                    _ body: (consuming Record) -> Void) throws(EventError) -> RecordKeys {
        try LineDecoder.keys(line, recordOf: user, body)
    }
}

extension LineDecoder {
    /// ``LineCodec/checkRecord(_:recordOf:_:)``: ``keys(_:writersWalk:)``
    /// and, when wanted, ``record(_:known:writersWalk:)``'s record, on one
    /// scan of the line (a scan does not depend on which strings the rules
    /// make, ``materialize``). Laid out as ``keys(_:writersWalk:)`` is, so
    /// that another learner's line costs what it costs there: the captures
    /// walked into a local and passed by address to the rules.
    static func keys(_ line: UnsafeRawBufferPointer, recordOf user: [UInt8],
                     _ body: (consuming Record) -> Void) throws(EventError) -> LineCodec.RecordKeys {
        if let problem = LineChecks.lengthProblem(line) { throw problem }
        var decoder = LineDecoder(line)
        decoder.materialize = false
        decoder.materializeData = false
        // Walked into here and read by the rules by address, as ``keys(_:writersWalk:)`` does: never copied.
        var e = EnvelopeCapture()
        var spilled = Spilled()
        if decoder.scanWritersLine(into: &e, spilled: &spilled) {
            if e.isSurelyOther(than: user, in: line) {
                let keys = try decoder.writersChecked(&e, spilled)
                spilled.drop()
                return keys
            }
            return try decoder.wholeKeys(e, spilled, body)
        }
        return try generalKeys(line, recordOf: user, body)
    }

    /// ``keys(_:recordOf:_:)`` by the general walk.
    @inline(never)
    private static func generalKeys(_ line: UnsafeRawBufferPointer, recordOf user: [UInt8],
                                    _ body: (consuming Record) -> Void) throws(EventError) -> LineCodec.RecordKeys {
        let (decoder, e, spilled, _) = try scan(line, materialize: false, data: false, writersWalk: false)
        if e.isSurelyOther(than: user, in: line) { return try decoder.keyed(e, spilled).keys }
        return try decoder.wholeKeys(e, spilled, body)
    }

    /// The keys of the scanned line `e`, its record (made with every string,
    /// as ``record(_:)`` makes it) handed to `body`.
    @inline(never)
    private func wholeKeys(_ e: EnvelopeCapture, _ spilled: Spilled, _ body: (consuming Record) -> Void) throws(EventError) -> LineCodec.RecordKeys {
        var whole = self
        whole.materialize = true
        whole.materializeData = true
        let (keys, record) = try whole.keyed(e, spilled)
        body(record)
        return keys
    }
}

extension LineDecoder.EnvelopeCapture {
    /// Whether the line `line` these captures are of surely holds another
    /// learner's `user` than the one whose UTF-8 bytes are `user`: its `user`
    /// is a string written without escapes (so its bytes are its value) and
    /// they are other bytes (code points compared, never `String ==`).
    @inline(__always)
    func isSurelyOther(than user: [UInt8], in line: UnsafeRawBufferPointer) -> Bool {
        let written = self[.user]
        guard written.kind == .string, !written.flag else { return false }
        let start = written.start, count = user.count
        guard written.end &- start == count else { return true }
        // From the last byte back: learners' ids of one form and length
        // (`u-655`, `u-123`) mostly differ at their end, so most lines of
        // other learners are told apart by the first byte compared.
        return user.withUnsafeBytes { mine in
            var k = count
            while k > 0 {
                k &-= 1
                if mine[k] != line[start &+ k] { return true }
            }
            return false
        }
    }
}
