extension LineCodec {
    /// The line of `event` as it would be the first line of a log (`seq` 1,
    /// `prev` 64 zeros), checked exactly as ``decodeRecord(_:)-(UnsafeRawBufferPointer)``
    /// checks that line: the writer's validation of an event to append. The
    /// line is kept, to be given its real `seq` and `prev` later
    /// (``PendingLine``) without encoding the event again.
    ///
    /// The outcome is that of encoding the line and decoding it (the same
    /// error: kind, member, rule, offset), but an event whose values plainly
    /// keep every rule is not decoded: its typed values are checked directly
    /// (``AppendCheck``). Anything else (extra members, a value breaking a
    /// rule) is decoded, so every error still comes from the decoder.
    package static func encodeChecked(_ event: NewEvent, id: String) throws(EventError) -> PendingLine {
        let line = encode(event.sealed(seq: 1, id: id, prev: Envelope.genesis))
        if !(line.count <= maxLineLength && AppendCheck.isPlainlyValid(event, id: id)) {
            // Checked as the newest reader reads it, whatever this process reads stored lines as.
            _ = try withBytes(line) { (bytes) throws(EventError) in try LineDecoder.record(bytes, known: FormatVersion.latest) }
        }
        guard let pending = PendingLine(line) else {
            // Both encoders write `seq` second and `prev` last (the tests check it on random events).
            throw EventError(.invalidEnvelope, "the line was not encoded with seq second and prev last; nothing was written")
        }
        return pending
    }
}

/// The format's rules on the typed values of an event to append, for events
/// that plainly keep them: `true` only when decoding the event's line would
/// accept it. It never explains a `false` (the decoder does).
///
/// It states no rule of its own: each check is the decoder's rule function
/// (``TextRule``, ``PayloadMember/minimum``, `LineDecoder.isValidID`,
/// `Timestamp.parse`, the JSON number grammar of `JSONScanner`, `Seconds`,
/// ``DataObject/clash(among:at:_:)``) applied to a typed value, as the
/// payload's ``DataObject/write(to:)`` hands each member over. What the types
/// already guarantee (a `Bool`, an enumeration, a present required member)
/// needs no check. Members the format does not define (`extra`) could clash
/// with the defined ones, so an event with any is left to the decoder.
enum AppendCheck {
    static func isPlainlyValid(_ e: NewEvent, id: String) -> Bool {
        guard validID(id), validTimestamp(e.at.text), TextRule.name.keeps(e.user) else { return false }
        if let device = e.device, !TextRule.name.keeps(device) { return false }
        var check = PayloadCheck(day: e.at.day)
        e.event.accept(&check)
        return check.plain
    }

    /// The decoder's `id` rule.
    static func validID(_ id: String) -> Bool {
        id.utf8.withContiguousStorageIfAvailable { LineDecoder.isValidID(UnsafeRawBufferPointer($0)) }
            ?? Array(id.utf8).withUnsafeBytes { LineDecoder.isValidID($0) }
    }

    /// The decoder's `at` rule.
    static func validTimestamp(_ text: String) -> Bool {
        let parsed = text.utf8.withContiguousStorageIfAvailable { Timestamp.parse(UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes { Timestamp.parse($0) }
        if case .success = parsed { return true }
        return false
    }

    /// The decoder's `seconds` rule: a JSON number (as the scanner reads it) that makes a `Seconds`.
    static func validSeconds(_ s: Seconds) -> Bool {
        var literal = s.literal
        return literal.withUTF8 { JSONScanner.isNumber(UnsafeRawBufferPointer($0)) } && Seconds(literal: s.literal) != nil
    }
}

/// Runs ``PlainCheck`` over an event's payload.
private struct PayloadCheck: PayloadVisitor {
    /// The day of the event's `at`.
    let day: Day
    var plain = true

    mutating func visit<P: Payload>(_ payload: P, as type: EventType) {
        var check = PlainCheck<P.Member>(type: type)
        payload.write(to: &check)
        plain = check.plain && payload.problem(onDay: day) == nil
    }
}

/// Whether an object's typed values plainly keep the decoder's rules, member by member.
struct PlainCheck<Member: PayloadMember>: MemberWriter {
    let type: EventType?
    private(set) var plain = true

    init(type: EventType?) { self.type = type }

    mutating func string(_ m: Member, _ value: String?) {
        if let value, !TextRule.of(m).keeps(value) { plain = false }
    }

    mutating func integer(_ m: Member, _ value: Int?) {
        if let value, !FieldRules.keeps(value, min: m.minimum) { plain = false }
    }

    mutating func bool(_ m: Member, _ value: Bool?) {}

    mutating func enumeration<E: RawRepresentable>(_ m: Member, _ value: E) where E.RawValue == String {}

    mutating func seconds(_ m: Member, _ value: Seconds?, required: Bool) {
        if let value { if !AppendCheck.validSeconds(value) { plain = false } } else if required { plain = false }
    }

    mutating func day(_ m: Member, _ value: Day) {
        // The decoder's rule: a date it can read back (years 0001-9999).
        if !(1...9999).contains(value.components.year) { plain = false }
    }

    mutating func objects<O: DataObject>(_ m: Member, _ items: [O]) {
        var seen: Set<ExactString>? = nil
        for k in items.indices where plain {
            var check = PlainCheck<O.Member>(type: nil)
            items[k].write(to: &check)
            plain = check.plain && O.clash(among: items, at: k, &seen) == nil
        }
    }

    mutating func extra(_ members: [JSONMember]) {
        if !members.isEmpty { plain = false }
    }
}
