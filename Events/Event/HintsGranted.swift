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

extension HintsGranted: Grant {
    package static var eventType: EventType { .hintsGranted }
}
