/// The second stage's answer for a writer's own line: checked without
/// building its payload or record, its values read where they are.
///
/// A line the writer's walk takes (``LineDecoder`` `scanWritersLine`) whose
/// envelope keeps its rules (the decoder's own rule functions, in its order)
/// and whose `data` plainly keeps its type's rules (``DataRules``: the
/// payload's init, recorded) is valid exactly as ``LineCodec/checkRecord(_:)``
/// finds it. For any other line there is no `WritersLine`, and the caller
/// reads it as before; so no verdict can differ.
package struct WritersLine {
    /// What the chain needs (``LineCodec/checkRecord(_:)``'s answer).
    package let keys: LineCodec.RecordKeys
    /// The event's type.
    package let type: EventType
    /// `at`'s instant, offset and day; its text is not made (empty).
    package let at: Timestamp
    /// `data`'s members as captured, by slot (``PayloadMember``'s place).
    let data: Slots

    /// A `data` member's string as its bytes in `line` (the line checked):
    /// the value itself, as the rules found it written without escapes; nil
    /// when the member is absent or null.
    @inline(__always) package func bytes<M: PayloadMember>(_ m: M, in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let base = line.baseAddress else { return nil }
        return Self.string(data[m.slot], in: base)
    }

    /// A checked string capture's value as its bytes in the line at `base`
    /// (written without escapes: the bytes are the value); nil when the
    /// member is absent or null.
    @inline(__always) static func string(_ c: Capture, in base: UnsafeRawPointer) -> UnsafeRawBufferPointer? {
        guard c.kind == .string, !c.flag else { return nil }
        return UnsafeRawBufferPointer(start: base + c.start, count: c.end &- c.start)
    }

    /// A checked boolean capture's value; nil when the member is absent or null.
    @inline(__always) static func bool(_ c: Capture) -> Bool? { c.kind == .bool ? c.flag : nil }

    /// One item of `data`'s array member (a submission's answer) as the
    /// second stage checked it (``DataRules`` `keepsItems`), its captures read
    /// where they are, its strings in the line at `line`.
    struct Item {
        let slots: Slots.Reader
        let line: UnsafeRawPointer

        /// A member's string as its bytes in the line; nil when absent or null.
        @inline(__always) func bytes<M: PayloadMember>(_ m: M) -> UnsafeRawBufferPointer? { WritersLine.string(slots[m.slot], in: line) }

        /// A member's boolean; nil when absent or null.
        @inline(__always) func bool<M: PayloadMember>(_ m: M) -> Bool? { WritersLine.bool(slots[m.slot]) }
    }

    /// Calls `body` with each of `items` (the captures of a line the second
    /// stage kept, the line at `line`), in order, read in place.
    static func forEachItem(_ items: [ItemCapture], in line: UnsafeRawPointer, _ body: (Item) -> Void) {
        guard let offset = MemoryLayout<ItemCapture>.offset(of: \ItemCapture.members.slots) else { return }
        items.withUnsafeBufferPointer { list in
            guard let base = list.baseAddress else { return }
            for k in 0..<list.count { body(Item(slots: Slots.Reader(at: UnsafeRawPointer(base + k) + offset), line: line)) }
        }
    }

    /// A `data` member's integer; nil when it is absent or null.
    @inline(__always) package func integer<M: PayloadMember>(_ m: M, in line: UnsafeRawBufferPointer) -> Int? {
        Self.integer(data[m.slot], in: line)
    }

    /// A checked number capture's integer in `line`; nil when the member is absent or null.
    @inline(__always) static func integer(_ c: Capture, in line: UnsafeRawBufferPointer) -> Int? {
        guard c.kind == .number, !c.flag else { return nil }
        return FieldRules.integer(UnsafeRawBufferPointer(rebasing: line[c.start..<c.end]))
    }

    /// A `data` member's boolean; nil when it is absent or null.
    @inline(__always) package func bool<M: PayloadMember>(_ m: M) -> Bool? { Self.bool(data[m.slot]) }
}

extension LineCodec {
    /// Checks a stored line as ``checkRecord(_:)`` does when it is a writer's
    /// line whose `data` plainly keeps its type's rules, without building
    /// its payload; nil for any other line (read it with ``checkRecord(_:)``
    /// or ``decodeRecord(_:)-(UnsafeRawBufferPointer)``, which find its
    /// verdict). Throws only the error ``checkRecord(_:)`` throws for the
    /// line (an envelope rule broken, found by the same rule functions in
    /// the same order).
    package static func checkWritersLine(_ line: UnsafeRawBufferPointer) throws(EventError) -> WritersLine? {
        // Matched, not compared with `==` (which made and dropped a pair of errors on every line).
        guard case .none = LineChecks.lengthProblem(line) else { return nil }
        var decoder = LineDecoder(line)
        decoder.materialize = false
        decoder.materializeData = false
        var e = LineDecoder.EnvelopeCapture()
        var spilled = Spilled()
        guard decoder.scanWritersLine(into: &e, spilled: &spilled) else { return nil }
        return try decoder.writersKeys(&e, spilled)
    }
}

extension LineDecoder {
    /// The second stage on a line the writer's walk took: the envelope's
    /// rules (``head(_:_:)``, ``envelope(_:_:version:)``: the general
    /// path's, in its order, so an error thrown here is its error), then
    /// `data` checked on its captures by its type's ``DataRules``. nil when
    /// the answer needs the general path: a newer-version line, a reader of
    /// an older version, a type without a table, or `data` not plainly
    /// keeping its rules (the payload built then finds the error, or none).
    /// `e` is only read (``writersRules(_:)``: by address).
    @inline(__always)
    func writersKeys(_ e: inout EnvelopeCapture, _ spilled: Spilled) throws(EventError) -> WritersLine? {
        guard let (seq, at, type) = try writersRules(&e, spilled) else { return nil }
        return WritersLine(keys: keys(e, seq: seq, isNewer: false), type: type, at: at, data: e.data.members.slots)
    }

    /// ``writersKeys(_:)``'s rules (`e` only read: passed by address), answering only the values the caller
    /// builds its answer from (`verify`'s check makes its keys from them, and
    /// no ``WritersLine``). The type the walk found for `data` (by its name's
    /// bytes, as the `type` rule matches them) is handed to the `type` rule
    /// instead of matching the name again.
    ///
    /// `e` is only read: passed by address (`inout`), so that the closure
    /// reading `data`'s captures (``DataRules/keeps(_:_:in:)``, on the
    /// unretained table) captures that address; passed as a value, the whole
    /// captures (235 bytes) were copied to the stack for it on every line.
    @inline(__always)
    func writersRules(_ e: inout EnvelopeCapture, _ spilled: Spilled) throws(EventError) -> (seq: Int, at: Timestamp, type: EventType)? {
        guard !materialize, known == FormatVersion.latest else { return nil }
        let f = FieldRules(s, .envelope, materialize: false)
        let (v, seq) = try checkedHead(e, f)
        guard v <= known else { return nil }
        // `data`'s type is the one the walk found by `type`'s bytes (``WriterWalks``, an exact match of its name).
        let (at, _, _, type, _) = try envelope(e, f, version: v, named: e.data.type)
        // `data`'s table as the walk found it with the type (``walkedRules``: `DataRules.of(type)`), not looked up again.
        // `data` passed by address (`inout`, only read): its captures are read where the walk left them, not copied.
        guard e.data.type == type, let rules = walkedRules, rules._withUnsafeGuaranteedRef({ $0.keeps(&e.data, spilled, in: s) }) else { return nil }
        return (seq, at, type)
    }
}
