/// What a payload's ``DataObject/write(to:)`` writes its members to, in the
/// format's order: the encoder (``MemberEncoder``, the line's bytes) or the
/// append check (``PlainCheck``, whether the values plainly keep the rules).
/// An optional member given as nil is not written.
package protocol MemberWriter {
    /// The object's members.
    associatedtype Member: PayloadMember
    /// The event type written (two types sharing a payload may differ in a rule); nil for an item.
    var type: EventType? { get }
    /// A string member.
    mutating func string(_ m: Member, _ value: String?)
    /// An integer member.
    mutating func integer(_ m: Member, _ value: Int?)
    /// A boolean member.
    mutating func bool(_ m: Member, _ value: Bool?)
    /// A member whose value is one of a string enumeration's raw values.
    mutating func enumeration<E: RawRepresentable>(_ m: Member, _ value: E) where E.RawValue == String
    /// A number > 0, written as its literal; `required` when the type says so.
    mutating func seconds(_ m: Member, _ value: Seconds?, required: Bool)
    /// A date, written `YYYY-MM-DD`.
    mutating func day(_ m: Member, _ value: Day)
    /// An array of objects.
    mutating func objects<O: DataObject>(_ m: Member, _ items: [O])
    /// The members the format does not define, as read.
    mutating func extra(_ members: [JSONMember])
}

/// Writes an object's members as the line's bytes: `"name":value` joined by
/// commas, each name as its layout spells it (``MemberLayout``).
struct MemberEncoder<Member: PayloadMember>: MemberWriter {
    var cursor: JSONWriter.Cursor
    let type: EventType?
    /// The object's layout: its event type's, or an item's of it.
    private let layout: MemberLayout
    private var first = true

    /// Writes `type`'s `data` members (or, with `type` nil, an item's, whose `layout` is its array's item layout).
    init(_ cursor: JSONWriter.Cursor, type: EventType?, layout: MemberLayout) {
        self.cursor = cursor
        self.type = type
        self.layout = layout
    }

    @inline(__always) private mutating func name(_ m: Member) {
        layout.written[m.slot].withUnsafeBufferPointer { cursor.copy(first ? UnsafeBufferPointer(rebasing: $0.dropFirst()) : $0) }
        first = false
    }

    mutating func string(_ m: Member, _ value: String?) {
        guard let value else { return }
        name(m); cursor.string(value)
    }

    mutating func integer(_ m: Member, _ value: Int?) {
        guard let value else { return }
        name(m); cursor.integer(value)
    }

    mutating func bool(_ m: Member, _ value: Bool?) {
        guard let value else { return }
        name(m); cursor.bool(value)
    }

    mutating func enumeration<E: RawRepresentable>(_ m: Member, _ value: E) where E.RawValue == String {
        name(m); cursor.string(value.rawValue)
    }

    mutating func seconds(_ m: Member, _ value: Seconds?, required: Bool) {
        guard let value else { return }
        name(m); cursor.literal(value.literal)
    }

    mutating func day(_ m: Member, _ value: Day) {
        name(m); cursor.string(value.description)
    }

    mutating func objects<O: DataObject>(_ m: Member, _ items: [O]) {
        name(m)
        cursor.byte(UInt8(ascii: "["))
        for (k, item) in items.enumerated() {
            cursor.raw(k == 0 ? "{" : ",{")
            var inner = MemberEncoder<O.Member>(cursor, type: nil, layout: layout.items?.layout ?? layout)
            item.write(to: &inner)
            cursor = inner.cursor
            cursor.byte(UInt8(ascii: "}"))
        }
        cursor.byte(UInt8(ascii: "]"))
    }

    mutating func extra(_ members: [JSONMember]) {
        if first, !members.isEmpty {
            // Only an object whose every defined member is absent starts with an extra one.
            cursor.string(members[0].name); cursor.byte(UInt8(ascii: ":")); cursor.value(members[0].value)
            cursor.members(members.dropFirst())
        } else {
            cursor.members(members)
        }
        first = false
    }
}
