/// The members of one object as scanned: the known ones by slot; the rest,
/// when there are any, kept beside the decoder (``Spilled``), this capture
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
/// there are any, are in the line's ``Spilled`` (``Spilled/items``): `data`
/// is scanned once by a decoder.
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

/// What the captures of a line do not hold, kept beside its decoder (one
/// reference, made only when set): the members an object's layout does not
/// define (each object's list, found by ``ObjectCapture/extraList``), and the
/// items of `data`'s array member. A writer's line, but for a submission's
/// answers, sets none, so its captures and its decoder are made, copied and
/// dropped with nothing retained or released: the caller owns the one
/// reference, absent for them, and ends it with ``drop()`` (a test, no call).
/// A value still: a holder sharing the storage copies it before changing it.
enum Spilled {
    /// Nothing set.
    case empty
    /// The values set.
    case kept(Values)

    final class Values {
        var extra: [[JSONMember]] = []
        var items: [ItemCapture] = []

        init() {}

        init(copying other: Values) {
            extra = other.extra; items = other.items
        }
    }

    /// Nothing set.
    init() { self = .empty }

    /// The values; nil when none was set.
    @inline(__always) var values: Values? {
        if case .kept(let values) = self { values } else { nil }
    }

    /// The values to change (made when none was set; copied when another holder shares them).
    private mutating func unique() -> Values {
        guard case .kept(var values) = self else {
            let made = Values()
            self = .kept(made)
            return made
        }
        self = .empty   // this value's reference let go, so that `values` may be the only one
        if !isKnownUniquelyReferenced(&values) { values = Values(copying: values) }
        self = .kept(values)
        return values
    }

    /// Ends this value: its reference, when there is one, released; when
    /// none was set (every writer's line but a submission), a test and
    /// nothing else, where dropping the value as it goes out of scope
    /// releases a nil reference (a call into the runtime) on every line.
    @inline(__always) consuming func drop() {
        switch consume self {
        case .empty: break
        case .kept(let values): _ = values
        }
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

    /// Scans the object at `i` as `type`'s `data`, into `d` (fresh); what
    /// `d` does not hold into `spilled`.
    mutating func scanData(_ type: EventType, into d: inout DataCapture, spilled: inout Spilled) throws(EventError) {
        d.type = type
        var items: [ItemCapture] = []
        try scanMembers(type.layout, into: &d.members, items: &items, spilled: &spilled)
        if !items.isEmpty { spilled.items = items }
    }

    /// Scans the array at `i` whose items are objects of `layout`.
    private mutating func scanItems(_ layout: MemberLayout, _ items: inout [ItemCapture], spilled: inout Spilled) throws(EventError) -> Capture {
        let start = s.i
        if try s.openArray() {
            items.reserveCapacity(8)
            var none: [ItemCapture] = []
            repeat {
                s.skipWhitespace()
                if s.peek() == UInt8(ascii: "{") {
                    var item = ItemCapture(kind: .object)
                    try scanMembers(layout, into: &item.members, items: &none, spilled: &spilled)
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
    /// as written (kept in `spilled`). Names are first matched with the
    /// writer's order (the layout's tokens).
    private mutating func scanMembers(_ layout: MemberLayout, into o: inout ObjectCapture, items: inout [ItemCapture],
                                      spilled: inout Spilled) throws(EventError) {
        let tokens = layout.tokens
        guard try s.openObject() else { return }
        var seen: UInt16 = 0
        var duplicates = DuplicateCheck()
        var next = 0
        var first = true
        // The members the layout does not define, kept in `spilled` once the object is read.
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
                    o.slots[slot] = try scanItems(array.layout, &items, spilled: &spilled)
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

    /// The typed event: `data`'s members read by the type's payload, in its
    /// order (what `d` does not hold in `spilled`).
    func event(_ type: EventType, _ d: DataCapture, _ spilled: Spilled) throws(EventError) -> Event {
        try type.decode(FieldRules(s, .data, materialize: materializeData, known: known), d, spilled)
    }
}
