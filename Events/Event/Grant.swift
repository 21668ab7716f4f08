/// What `hints.granted` and `streak.freeze_granted` share: `data` is how many
/// (`amount`, >= 1) and why (`reason`, one of the type's reasons). Each type
/// keeps its own reasons and event type in its own file.
package protocol Grant: Payload where Member == GrantMember {
    /// Why the amount was granted.
    associatedtype Reason: RawRepresentable<String>, CaseIterable, Sendable, Hashable
    /// How many (>= 1).
    var amount: Int { get }
    /// Why.
    var reason: Reason { get }
    /// Members the format does not define, kept as written.
    var extra: [JSONMember] { get }
    /// Makes the payload.
    init(amount: Int, reason: Reason, extra: [JSONMember])
}

/// A grant's `data` members, in the format's order.
package enum GrantMember: String, PayloadMember {
    case amount, reason
    package var minimum: Int { 1 }
}

extension Grant {
    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(amount: try d.integer(.amount), reason: try d.enumeration(.reason), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.integer(.amount, amount); w.enumeration(.reason, reason); w.extra(extra)
    }
}
