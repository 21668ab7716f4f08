/// `hints.granted`: hints added to the learner's balance.
public struct HintsGranted: Sendable, Hashable {
    /// Why the hints were granted.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The starting balance.
        case seed
        /// Bought.
        case purchase
        /// Earned.
        case reward
        /// Given by support or an operator.
        case grant
    }
    /// How many hints (>= 1).
    public var amount: Int
    /// Why.
    public var reason: Reason
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Makes a `hints.granted` payload.
    public init(amount: Int, reason: Reason, extra: [JSONMember] = []) {
        self.amount = amount; self.reason = reason; self.extra = extra
    }
}

extension HintsGranted: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember {
        case amount, reason
        package var minimum: Int { 1 }
    }
    package static var eventType: EventType { .hintsGranted }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(amount: try d.integer(.amount), reason: try d.enumeration(.reason), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.integer(.amount, amount); w.enumeration(.reason, reason); w.extra(extra)
    }
}
