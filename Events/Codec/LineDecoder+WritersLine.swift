/// The first stage's fast walk for the writer's own lines (simdjson's
/// two-stage design: find the structure fast, then check it against the
/// schema).
///
/// A stored line as ``LineCodec/encode(_:)`` writes it — the envelope's
/// members in the format's order (`device` may be left out), `data`'s members
/// in its type's order (``MemberLayout``: each type's member list, from its
/// own file), no whitespace, no member the format does not define, no nested
/// value but `data` and the items of a submission's `answers` — is walked
/// once, forward: each member's `,"name":` is compared as words with the
/// member the layout puts next (or one after it, as optional members may be
/// left out), and each value is read by the scanner's own token readers
/// (``JSONScanner/scanString()``, ``JSONScanner/scanNumber()``,
/// ``JSONScanner/literal(_:)``), so every value's ``Capture`` is exactly the
/// one the general walk (`scanEnvelope`) would make.
///
/// The walk decides nothing about the format: on any byte it does not
/// expect (whitespace, another order, an unknown member, a nested value
/// elsewhere, `null` where a layout puts an object, the line's end too
/// early or too late, a string the scanner refuses) it answers false and the
/// caller runs the general walk from the start, which finds the same
/// captures or the error. Where it answers true, the captures are the
/// general walk's, and the same rules run on them (``LineDecoder``'s
/// `record`, `keyed`), so no verdict, error or value changes; only the
/// general walk's work goes (whitespace, the duplicate bits, matching a name
/// that is not the next one, unknown members).
extension LineDecoder {
    /// Walks a line laid out as the writer lays it out into `e` (fresh),
    /// leaving the scanner past the line; false (with `e` and the scanner in
    /// any state) for any other line.
    mutating func scanWritersLine(into e: inout EnvelopeCapture) -> Bool {
        let n = s.bytes.count
        guard n > 2, s.bytes[0] == UInt8(ascii: "{"), s.bytes[n &- 1] == UInt8(ascii: "}") else { return false }
        s.i = 1
        s.depth = 1
        // The envelope's slots, and `data` straight into `e` (handed down, not captured): nothing is copied whole.
        do throws(EventError) {
            guard try writersMembers(WriterOrder.envelope, nested: EnvelopeMember.data.rawValue, into: &e.slots, &e.data, { d, slots, data throws(EventError) in
                try d.writersData(type: slots[EnvelopeMember.type.rawValue], into: &data)
            }) else { return false }
        } catch {
            return false
        }
        s.depth = 0
        return s.i == n
    }

    /// The members of the object whose `{` was just read, in the order of
    /// `tokens`, each at most once, into `slots`; `nested` is the slot whose
    /// value `object` reads into `inner` (a nil capture: not the writer's
    /// shape). Leaves the scanner past the object's `}`; false when the
    /// object is not laid out as the writer lays it out.
    @inline(__always)
    private mutating func writersMembers<Inner>(_ tokens: [NameToken], nested: Int, into slots: inout Slots, _ inner: inout Inner,
                                                _ object: (inout LineDecoder, Slots, inout Inner) throws(EventError) -> Capture?) throws(EventError) -> Bool {
        var next = 0
        let count = tokens.count
        let line = s.bytes, n = line.count
        // A token is compared as words: 24 bytes from it must be in the line (the `}` closing an object needs one).
        while s.i &+ 24 <= n {
            let at = s.i
            var k = next
            while k < count, !tokens[k].matches(line, at: at) { k &+= 1 }
            // The first member's token has no comma: only slot 0 may open the object.
            guard k < count, next > 0 || k == 0 else { break }
            s.i = at &+ tokens[k].count
            if k == nested {
                guard let c = try object(&self, slots, &inner) else { return false }
                slots[k] = c
            } else {
                guard let c = try writersScalar() else { return false }
                slots[k] = c
            }
            next = k &+ 1
        }
        guard next > 0, s.i < n, line[s.i] == UInt8(ascii: "}") else { return false }
        s.i &+= 1
        return true
    }

    /// A string, number, `true`, `false` or `null` at `i`, as the general walk captures it; nil for anything else.
    @inline(__always)
    private mutating func writersScalar() throws(EventError) -> Capture? {
        switch s.bytes[s.i] {
        case UInt8(ascii: "\""): return try s.scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try s.scanNumber()
        case UInt8(ascii: "t"): try s.literal("true"); return Capture(.bool, flag: true)
        case UInt8(ascii: "f"): try s.literal("false"); return Capture(.bool, flag: false)
        case UInt8(ascii: "n"): try s.literal("null"); return Capture(.null)
        default: return nil
        }
    }

    /// `data`, an object, walked for the type written before it (a known
    /// type's name without escapes); nil for anything else.
    private mutating func writersData(type written: Capture, into d: inout DataCapture) throws(EventError) -> Capture? {
        guard written.kind == .string, !written.flag, s.bytes[s.i] == UInt8(ascii: "{"),
              let type = EventType(utf8: LineSlice(line: s.bytes, start: written.start, count: written.end &- written.start))
        else { return nil }
        let start = s.i
        d.type = type
        guard try writersObject(type.layout, into: &d.members, items: &d.items) else { return nil }
        return Capture(.object, start: start, end: s.i)
    }

    /// An object of `layout` at `i` (its array member's items into `items`).
    private mutating func writersObject(_ layout: MemberLayout, into o: inout ObjectCapture, items: inout [ItemCapture]) throws(EventError) -> Bool {
        s.i &+= 1
        s.depth &+= 1
        let nested = layout.items?.slot ?? -1
        guard try writersMembers(layout.tokens, nested: nested, into: &o.slots, &items, { d, _, items throws(EventError) in
            guard let array = layout.items else { return nil }
            return try d.writersItems(array.layout, &items)
        }) else { return false }
        s.depth &-= 1
        return true
    }

    /// An array of objects of `layout` at `i`, each item into `items`; nil for anything else.
    private mutating func writersItems(_ layout: MemberLayout, _ items: inout [ItemCapture]) throws(EventError) -> Capture? {
        guard s.bytes[s.i] == UInt8(ascii: "[") else { return nil }
        let start = s.i
        s.i &+= 1
        if s.bytes[s.i] == UInt8(ascii: "]") {
            s.i &+= 1
            return Capture(.array, start: start, end: s.i)
        }
        s.depth &+= 1
        items.reserveCapacity(8)
        var none: [ItemCapture] = []
        while true {
            guard s.bytes[s.i] == UInt8(ascii: "{") else { return nil }
            var item = ItemCapture(kind: .object)
            guard try writersObject(layout, into: &item.members, items: &none) else { return nil }
            items.append(item)
            guard s.i < s.bytes.count else { return nil }
            let c = s.bytes[s.i]
            s.i &+= 1
            if c == UInt8(ascii: "]") { break }
            guard c == UInt8(ascii: ",") else { return nil }
        }
        s.depth &-= 1
        return Capture(.array, start: start, end: s.i)
    }
}
