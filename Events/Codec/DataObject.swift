/// An object of the format with known members: an event type's `data`
/// (``Payload``) or an item of an array in it (a submission's answer).
///
/// Its type's file (`Events/Event/`) says everything the codec knows of it:
/// its members (``Member``, in the format's order), how it is read from a
/// scanned line (``init(_:)``, member by member, by name) and how it is
/// written (``write(to:)``, which the append check reads too). The codec's
/// central code only dispatches to these.
package protocol DataObject: Sendable, Hashable {
    /// The object's members, in the format's order.
    associatedtype Member: PayloadMember
    /// Reads the object from its scanned members, applying each member's rule
    /// in the order written here; the first rule broken is the error.
    init(_ d: DataReader<Member>) throws(EventError)
    /// Writes the members in the format's order (an optional one only when
    /// present), then the members the format does not define.
    func write<W: MemberWriter>(to w: inout W) where W.Member == Member
    /// The member whose values are distinct among the items of an array of
    /// these objects (a submission's questions), or nil (the default) for
    /// none. The one statement of that rule: the built objects' ``clash(among:at:_:)``
    /// and the second stage's table (``DataRules``, on the items' bytes) both read it.
    static var distinct: Distinct<Self>? { get }
}

extension DataObject {
    package static var distinct: Distinct<Self>? { nil }

    /// The rule that item `k` of an array of these objects breaks against the
    /// items before it (those after it are ignored), or nil: ``distinct``'s
    /// member repeats. Each item is checked as it is read, before the next one.
    package static func clash(among items: [Self], at k: Int, _ seen: inout Set<ExactString>?) -> (member: Member, rule: String)? {
        guard let distinct else { return nil }
        let value = distinct.value(items[k])
        let repeats = DistinctValues.repeats(at: k, { CodePoint.equal(distinct.value(items[$0]), value) },
                                            { ExactString(distinct.value(items[$0])) }, &seen)
        return repeats ? (distinct.member, "\(distinct.rule) (\"\(value.prefixForMessage)\" repeats)") : nil
    }
}

/// A rule among the items of an array of objects: one member's values are
/// distinct, compared as their UTF-8 bytes (code points, never `String ==`).
package struct Distinct<O: DataObject>: Sendable {
    /// The member whose values are distinct.
    package let member: O.Member
    /// A built object's value of it.
    let value: @Sendable (O) -> String
    /// The rule, for a person (the item's value is added when it repeats).
    let rule: String

    /// States the rule: `member`'s values (a built object's read by `value`) are distinct; `rule` says so.
    package init(_ member: O.Member, _ value: @escaping @Sendable (O) -> String, rule: String) {
        self.member = member; self.value = value; self.rule = rule
    }
}

/// ``Distinct``'s comparison, for built objects and for bytes of a line alike.
enum DistinctValues {
    /// Whether item `k`'s value repeats the value of an item before it:
    /// `equal(j)` tells whether item j's value is item k's, `key(j)` is item
    /// j's value as a key. Pairwise for the first 16 items; beyond, a set made
    /// on demand (`seen`, kept across the items of one array) keeps a hostile
    /// array linear. Built objects and bytes of a line are compared by this one function.
    @inline(__always)
    static func repeats<Key: Hashable>(at k: Int, _ equal: (Int) -> Bool, _ key: (Int) -> Key, _ seen: inout Set<Key>?) -> Bool {
        if k < 16 {
            for j in 0..<k where equal(j) { return true }
            return false
        }
        if seen == nil { seen = Set((0..<k).map(key)) }
        return seen?.insert(key(k)).inserted == false
    }
}

/// An event type's `data`: a ``DataObject`` that is also `Codable` as the
/// `data` object of its line (`Events/Codable/Event+Codable.swift`).
package protocol Payload: DataObject, Codable {
    /// The type whose rules read this payload on its own (for two types
    /// sharing a payload, the more lenient one).
    static var eventType: EventType { get }
    /// The payload's rule against `day`, the day of its event's own `at` (a
    /// pause is never backdated), or among its members taken together; nil
    /// (the default) for a type that has none. Checked after every member's
    /// own rule, by the decoder and by the append check alike, through
    /// ``problem(onDay:)``. A type has such a rule exactly when this is not
    /// nil, so the second stage (``DataRules``) knows which types it must
    /// build the payload of: it is the rule itself, not a flag beside it.
    static var dayRule: DayRule<Self>? { get }
}

extension Payload {
    package static var dayRule: DayRule<Self>? { nil }

    /// The rule the payload breaks against `day` or among its members, or nil
    /// when it keeps them: its type's ``dayRule``.
    package func problem(onDay day: Day) -> (member: Member, rule: String)? {
        Self.dayRule.flatMap { $0.problem(self, day) }
    }
}

/// A payload's rule against its event's day or among its members (``Payload/dayRule``).
package struct DayRule<P: Payload>: Sendable {
    /// The member named and the rule broken by the payload on that day; nil when it keeps the rule.
    let problem: @Sendable (P, Day) -> (member: P.Member, rule: String)?

    /// The rule `problem` states.
    package init(_ problem: @escaping @Sendable (P, Day) -> (member: P.Member, rule: String)?) { self.problem = problem }
}

/// Something done with an event's payload, whatever its type: the one switch
/// over the event types that needs the payload is ``Event/accept(_:)``.
package protocol PayloadVisitor {
    /// Called with the event's payload and its type.
    mutating func visit<P: Payload>(_ payload: P, as type: EventType)
}
