/// The members of one object as scanned: the known ones by slot, the rest kept in order.
struct ObjectCapture {
    var slots = Slots()
    /// The members the object's type does not define, out of line (the writer's lines have none).
    var spilled = Spilled()

    /// The members the object's type does not define, as written.
    var extra: [JSONMember] {
        get { spilled.values?.extra ?? [] }
        _modify { yield &spilled.unique().extra }
    }
}

/// `data` as scanned for one event type.
struct DataCapture {
    /// The type it was scanned for; nil before it is scanned.
    var type: EventType? = nil
    var members = ObjectCapture()
    /// The items of the type's array member, out of line (only a submission's `answers` has them).
    private var spilled = Spilled()

    /// The items of the type's array member (a submission's answers), when it is an array.
    var items: [ItemCapture] {
        get { spilled.values?.items ?? [] }
        _modify { yield &spilled.unique().items }
    }
}

/// One item of an array member (a submission's `answers`).
struct ItemCapture {
    /// The item's JSON kind: only an object has members.
    var kind: Capture.Kind
    var members = ObjectCapture()
}

/// What a capture holds that most lines do not have (members a layout does
/// not define, an array member's items, the envelope's first unknown
/// member), kept out of line and made only when set: a capture of a line
/// without it (the writer's own lines, but for a submission's answers) is
/// plain values, made, copied and dropped with no array, and one release of
/// nothing. A value still: a capture sharing the storage copies it before
/// changing it.
struct Spilled {
    final class Values {
        var extra: [JSONMember] = []
        var items: [ItemCapture] = []
        var firstUnknown: String? = nil

        init() {}

        init(copying other: Values) {
            extra = other.extra; items = other.items; firstUnknown = other.firstUnknown
        }
    }

    /// The values; nil when none was set.
    private(set) var values: Values? = nil

    /// The values to change (made when none was set; copied when another capture shares them).
    mutating func unique() -> Values {
        if isKnownUniquelyReferenced(&values), let values { return values }
        let made = values.map(Values.init(copying:)) ?? Values()
        values = made
        return made
    }
}

extension LineDecoder {
    // MARK: - Scanning

    /// Scans the object at `i` as `type`'s `data`, into `d` (fresh).
    mutating func scanData(_ type: EventType, into d: inout DataCapture) throws(EventError) {
        d.type = type
        var items: [ItemCapture] = []
        try scanMembers(type.layout, into: &d.members, items: &items)
        if !items.isEmpty { d.items = items }
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
                if duplicates.repeats(text, among: o.extra.lazy.map(\.name)) { throw s.duplicate(text, at: nameOffset) }
                try s.colon()
                o.extra.append(JSONMember(text, try s.parseValue()))
            }
        }
    }

    // MARK: - The types' rules

    /// The typed event: `data`'s members read by the type's payload, in its order.
    func event(_ type: EventType, _ d: DataCapture) throws(EventError) -> Event {
        try type.decode(FieldRules(s, .data, materialize: materializeData, known: known), d)
    }
}
