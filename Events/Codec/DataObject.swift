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
    /// The rule that item `k` of an array of these objects breaks against the
    /// items before it (those after it are ignored), or nil: a submission's
    /// questions are distinct. Each item is checked as it is read, before the next one.
    static func clash(among items: [Self], at k: Int, _ seen: inout Set<ExactString>?) -> (member: Member, rule: String)?
}

extension DataObject {
    package static func clash(among items: [Self], at k: Int, _ seen: inout Set<ExactString>?) -> (member: Member, rule: String)? { nil }
}

/// An event type's `data`: a ``DataObject`` that is also `Codable` as the
/// `data` object of its line (`Events/Codable/Event+Codable.swift`).
package protocol Payload: DataObject, Codable {
    /// The type whose rules read this payload on its own (for two types
    /// sharing a payload, the more lenient one).
    static var eventType: EventType { get }
    /// The rule the payload breaks against `day`, the day of its event's own
    /// `at` (a pause is never backdated), or among its members taken
    /// together; nil when it keeps them. Checked after every member's own
    /// rule, by the decoder and by the append check alike.
    func problem(onDay day: Day) -> (member: Member, rule: String)?
}

extension Payload {
    package func problem(onDay day: Day) -> (member: Member, rule: String)? { nil }
}

/// Something done with an event's payload, whatever its type: the one switch
/// over the event types that needs the payload is ``Event/accept(_:)``.
package protocol PayloadVisitor {
    /// Called with the event's payload and its type.
    mutating func visit<P: Payload>(_ payload: P, as type: EventType)
}
