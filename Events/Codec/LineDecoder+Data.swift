/// The members of one object as scanned: the known ones by slot; the rest,
/// when there are any, kept by the decoder (``Spilled``), this capture
/// holding only where. Plain values: made, copied and dropped with no
/// reference counted.
struct ObjectCapture {
    var slots = Slots()
    /// Which of the decoder's lists holds the members the object's type does
    /// not define (``Spilled/extra(of:)``); -1 for none (the writer's lines).
    var extraList: Int32 = -1

    /// Whether the object has members its type does not define.
    @inline(__always) var hasExtra: Bool { extraList >= 0 }
}

/// `data` as scanned for one event type. Its array member's items, when
/// there are any, are the decoder's (``Spilled/items``): `data` is scanned
/// once by a decoder.
struct DataCapture {
    /// The type it was scanned for; nil before it is scanned.
    var type: EventType? = nil
    var members = ObjectCapture()
}

/// One item of an array member (a submission's `answers`).
struct ItemCapture {
    /// The item's JSON kind: only an object has members.
    var kind: Capture.Kind
    var members = ObjectCapture()
}

/// What the captures of a line do not hold, kept by its decoder (one
/// reference, made only when set): the members an object's layout does not
/// define (each object's list, found by ``ObjectCapture/extraList``), and the
/// items of `data`'s array member. A writer's line, but for a submission's
/// answers, sets none, so its captures and its decoder are made, copied and
/// dropped with nothing retained or released but one reference that is nil.
/// A value still: a decoder sharing the storage copies it before changing it.
struct Spilled {
    final class Values {
        var extra: [[JSONMember]] = []
        var items: [ItemCapture] = []

        init() {}

        init(copying other: Values) {
            extra = other.extra; items = other.items
        }
    }

    /// The values; nil when none was set.
    private(set) var values: Values? = nil

    /// The values to change (made when none was set; copied when another decoder shares them).
    private mutating func unique() -> Values {
        if isKnownUniquelyReferenced(&values), let values { return values }
        let made = values.map(Values.init(copying:)) ?? Values()
        values = made
        return made
    }

    /// The items of `data`'s array member (a submission's answers), as scanned.
    var items: [ItemCapture] {
        get { values?.items ?? [] }
        set { unique().items = newValue }
    }

    /// Whether `data`'s array member has items.
    @inline(__always) var hasItems: Bool {
        guard let values else { return false }
        return !values.items.isEmpty
    }

    /// The members `o`'s type does not define, as written.
    func extra(of o: ObjectCapture) -> [JSONMember] {
        guard o.hasExtra, let values, Int(o.extraList) < values.extra.count else { return [] }
        return values.extra[Int(o.extraList)]
    }

    /// Keeps `extra` (not empty), an object's members its type does not
    /// define, and answers the list's place for ``ObjectCapture/extraList``.
    mutating func keep(extra: [JSONMember]) -> Int32 {
        let values = unique()
        values.extra.append(extra)
        return Int32(truncatingIfNeeded: values.extra.count &- 1)
    }
}

extension LineDecoder {
    // MARK: - Scanning

    /// Scans the object at `i` as `type`'s `data`, into `d` (fresh).
    mutating func scanData(_ type: EventType, into d: inout DataCapture) throws(EventError) {
        d.type = type
        var items: [ItemCapture] = []
        try scanMembers(type.layout, into: &d.members, items: &items)
        if !items.isEmpty { spilled.items = items }
    }

    /// Scans the array at `i` whose items are objects of `layout`.
    private mutating func scanItems(_ layout: MemberLayout, _ items: inout [ItemCapture]) throws(EventError) -> Capture {
        let start = s.i
        if try s.openArray() {
            items.reserveCapacity(8)
            var none: [ItemCapture] = []
            repeat {
                s.skipWhitespace()
                if s.peek() == UInt8(ascii: "{") {
                    var item = ItemCapture(kind: .object)
                    try scanMembers(layout, into: &item.members, items: &none)
                    items.append(item)
                } else {
                    items.append(ItemCapture(kind: try s.captureValue().kind))
                }
            } while try s.nextItem()
        }
        return Capture(.array, start: start, end: s.i)
    }

    /// Scans the object at `i` with `layout`'s members: each (once) into its
    /// slot, the array member's items into `items`, the others into `extra`
    /// as written. Names are first matched with the writer's order (the
    /// layout's tokens).
    private mutating func scanMembers(_ layout: MemberLayout, into o: inout ObjectCapture, items: inout [ItemCapture]) throws(EventError) {
        let tokens = layout.tokens
        guard try s.openObject() else { return }
        var seen: UInt16 = 0
        var duplicates = DuplicateCheck()
        var next = 0
        var first = true
        // The members the layout does not define, kept by the decoder once the object is read.
        var extra: [JSONMember] = []
        while true {
            let nameOffset: Int
            var slot: Int? = nil
            var name = Capture()
            if let token = s.matchName(tokens, next: next, first: first) {
                nameOffset = s.i - token.count + token.quote
                s.skipWhitespace()
                slot = token.slot
            } else {
                if !first, !(try s.nextMember()) { break }
                s.skipWhitespace()
                nameOffset = s.i
                name = try s.memberName()
                slot = s.identify(name, { layout.slot($0) }, { layout.slot($0) })
                if let slot {
                    guard seen & (1 << slot) == 0 else { throw s.duplicate(layout.names[slot], at: nameOffset) }
                    try s.colon()
                }
            }
            first = false
            if let slot {
                let bit: UInt16 = 1 << slot
                guard seen & bit == 0 else { throw s.duplicate(layout.names[slot], at: nameOffset) }
                seen |= bit
                next = slot + 1
                if let array = layout.items, array.slot == slot, s.peek() == UInt8(ascii: "[") {
                    o.slots[slot] = try scanItems(array.layout, &items)
                } else {
                    o.slots[slot] = try s.captureValue()
                }
            } else {
                let text = s.string(name)
                if duplicates.repeats(text, among: extra.lazy.map(\.name)) { throw s.duplicate(text, at: nameOffset) }
                try s.colon()
                extra.append(JSONMember(text, try s.parseValue()))
            }
        }
        if !extra.isEmpty { o.extraList = spilled.keep(extra: extra) }
    }

    // MARK: - The types' rules

    /// The typed event: `data`'s members read by the type's payload, in its order.
    func event(_ type: EventType, _ d: DataCapture) throws(EventError) -> Event {
        try type.decode(FieldRules(s, .data, materialize: materializeData, known: known), d, spilled)
    }
}
