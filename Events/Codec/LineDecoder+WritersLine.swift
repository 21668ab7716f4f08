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
    /// Walks a line laid out as the writer lays it out into `e` (fresh; a
    /// submission's answers into `spilled`, fresh), leaving the scanner past
    /// the line; false (with `e`, `spilled` and the scanner in any state) for
    /// any other line.
    ///
    /// Compiled per type (``WriterWalks``): the envelope's and each type's
    /// tokens in one flat table each, the type found by its name's hash, the
    /// offset in a register; values read by the scanner's own readers (their
    /// inline paths here, the whole reader from the same byte for anything
    /// else), so each ``Capture`` is the one the general walk makes.
    mutating func scanWritersLine(into e: inout EnvelopeCapture, spilled: inout Spilled) -> Bool {
        let line = s.bytes, n = line.count
        guard n > 2, line[0] == UInt8(ascii: "{"), line[n &- 1] == UInt8(ascii: "}") else { return false }
        let walks = WriterWalks.shared
        var i = 0
        do throws(EventError) {
            // `data` straight into `e` (handed down, not captured): nothing is copied whole.
            guard try writersObject(walks.envelope, &i, into: &e.slots, &e.data, { d, i, slots, data throws(EventError) in
                try d.writersData(type: slots[EnvelopeMember.type.rawValue], walks, &i, into: &data, spilled: &spilled)
            }) else { return false }
        } catch {
            return false
        }
        s.i = i
        s.depth = 0
        return i == n
    }

    /// The members of the object whose `{` is at `i`, in the order of
    /// `walk`'s tokens, each at most once (optional ones may be left out),
    /// into `slots`; `walk.nested`'s value is read by `nested` into `inner`
    /// (nil: not the writer's). Leaves `i` past the object's `}`; false when
    /// the object is not laid out as the writer lays it out.
    @inline(__always)
    private mutating func writersObject<Inner>(_ walk: ObjectWalk, _ i: inout Int, into slots: inout Slots, _ inner: inout Inner,
                                               _ nested: (inout LineDecoder, inout Int, Slots, inout Inner) throws(EventError) -> Capture?)
        throws(EventError) -> Bool {
        let line = s.bytes, n = line.count
        let tokens = walk.tokens, count = walk.count
        var at = i &+ 1
        // The first member's token has no comma: only slot 0 may open the object.
        // A token is compared as words: 24 bytes from it must be in the line (the `}` closing an object needs one).
        guard count > 0, at &+ 24 <= n, tokens[0].matches(line, at: at) else { return false }
        var k = 0
        while true {
            at &+= tokens[k].count
            // `k` is below `count`, at most nine (``ObjectWalk``): the slot is stored without a clamp.
            if k == walk.nested {
                guard let c = try nested(&self, &at, slots, &inner) else { return false }
                slots.set(c, inSlot: k)
            } else {
                guard let c = try writersScalar(&at) else { return false }
                slots.set(c, inSlot: k)
            }
            guard at &+ 24 <= n else { break }
            k &+= 1
            while k < count, !tokens[k].matches(line, at: at) { k &+= 1 }
            guard k < count else { break }
        }
        guard at < n, line[at] == UInt8(ascii: "}") else { return false }
        i = at &+ 1
        return true
    }

    /// A string, number, `true`, `false` or `null` at `i` (before the line's
    /// last byte), as the general walk captures it, leaving `i` past it; nil
    /// for anything else.
    @inline(__always)
    private mutating func writersScalar(_ i: inout Int) throws(EventError) -> Capture? {
        let line = s.bytes, n = line.count
        let b = line[i]
        if b == UInt8(ascii: "\"") {
            // `scanString`'s paths for a string without escapes (`scanPlainString`'s
            // blocks of sixteen), inline, on `i` in a register.
            let start = i &+ 1
            if let end = ByteSearch.plainStringEnd(line, from: start) {
                i = end &+ 1
                return Capture(.string, start: start, end: end)
            }
        } else if b &- 0x30 < 10 {
            // `scanNumber`'s inline path, and a lone `0` as `scanAnyNumber` reads it.
            let k = b == UInt8(ascii: "0") ? i &+ 1 : ByteSearch.digitsEnd(line, from: i &+ 1)
            if k == n || (line[k] != UInt8(ascii: ".") && line[k] | 0x20 != UInt8(ascii: "e")) {
                defer { i = k }
                return Capture(.number, start: i, end: k, flag: false)
            }
        } else if b == UInt8(ascii: "t"), i &+ 4 <= n, line.loadUnaligned(fromByteOffset: i, as: UInt32.self) == UInt32(littleEndian: 0x6575_7274) {
            // `literal("true")`, as one word.
            i &+= 4
            return Capture(.bool, flag: true)
        } else if b == UInt8(ascii: "f"), i &+ 5 <= n, line.loadUnaligned(fromByteOffset: i &+ 1, as: UInt32.self) == UInt32(littleEndian: 0x6573_6C61) {
            // `literal("false")`: `f`, then `alse` as one word.
            i &+= 5
            return Capture(.bool, flag: false)
        }
        return try writersAnyScalar(&i)
    }

    /// ``writersScalar(_:)`` for any other value: the scanner's readers from
    /// the same byte (out of line: the walk's loop keeps its registers).
    @inline(never)
    private mutating func writersAnyScalar(_ i: inout Int) throws(EventError) -> Capture? {
        let b = s.bytes[i]
        s.i = i
        defer { i = s.i }
        switch b {
        case UInt8(ascii: "\""): return try s.scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try s.scanNumber()
        case UInt8(ascii: "t"): try s.literal("true"); return Capture(.bool, flag: true)
        case UInt8(ascii: "f"): try s.literal("false"); return Capture(.bool, flag: false)
        case UInt8(ascii: "n"): try s.literal("null"); return Capture(.null)
        default: return nil
        }
    }

    /// `data`, an object at `i`, walked for the type written before it (a
    /// known type's name without escapes; its array member's items into
    /// `spilled`); nil for anything else.
    private mutating func writersData(type written: Capture, _ walks: WriterWalks, _ i: inout Int, into d: inout DataCapture,
                                      spilled: inout Spilled) throws(EventError) -> Capture? {
        let line = s.bytes
        guard written.kind == .string, !written.flag, line[i] == UInt8(ascii: "{"),
              let (type, walk, rules) = walks.type(line, written.start, written.end &- written.start)
        else { return nil }
        let start = i
        d.type = type
        walkedRules = rules
        if let array = walk.items {
            // The items, when there are any, kept in `spilled` (``Spilled/items``) once read.
            var items: [ItemCapture] = []
            guard try writersObject(walk, &i, into: &d.members.slots, &items, { d, i, _, items throws(EventError) in
                try d.writersItems(array.pointee, &i, &items)
            }) else { return nil }
            if !items.isEmpty { spilled.items = items }
        } else {
            // A type without an array member (every type but a submission): no array made, none released.
            var none: Void = ()
            guard try writersObject(walk, &i, into: &d.members.slots, &none, { _, _, _, _ in nil }) else { return nil }
        }
        return Capture(.object, start: start, end: i)
    }

    /// An array of objects of `walk` at `i`, each item into `items`; nil for anything else.
    private mutating func writersItems(_ walk: ObjectWalk, _ i: inout Int, _ items: inout [ItemCapture]) throws(EventError) -> Capture? {
        let line = s.bytes, n = line.count
        guard line[i] == UInt8(ascii: "[") else { return nil }
        let start = i
        i &+= 1
        if line[i] == UInt8(ascii: "]") {
            i &+= 1
            return Capture(.array, start: start, end: i)
        }
        items.reserveCapacity(8)
        var none: Void = ()
        while true {
            guard line[i] == UInt8(ascii: "{") else { return nil }
            var item = ItemCapture(kind: .object)
            guard try writersObject(walk, &i, into: &item.members.slots, &none, { _, _, _, _ in nil }) else { return nil }
            items.append(item)
            guard i < n else { return nil }
            let c = line[i]
            i &+= 1
            if c == UInt8(ascii: "]") { break }
            guard c == UInt8(ascii: ",") else { return nil }
        }
        return Capture(.array, start: start, end: i)
    }
}
