/// `streak.freeze_granted` (format version 2): streak freezes the learner
/// received. A freeze held keeps a streak alive across one day without
/// activity; the projections hold at most 2 (projections.md, `streak`).
public struct StreakFreezeGranted: Sendable, Hashable {
    /// Why the freezes were granted.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// Bought.
        case purchase
        /// Earned.
        case reward
        /// Given by the app, support or an operator.
        case grant
    }
    /// How many freezes (>= 1).
    public var amount: Int
    /// Why.
    public var reason: Reason
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Makes a `streak.freeze_granted` payload.
    public init(amount: Int, reason: Reason, extra: [JSONMember] = []) {
        self.amount = amount; self.reason = reason; self.extra = extra
    }
}

extension StreakFreezeGranted: Grant {
    package static var eventType: EventType { .streakFreezeGranted }
}
