/// The learner's hint balance. Never reset (hints may have been bought).
public struct Hints: Sendable, Hashable {
    /// Granted minus used, never below 0.
    public var balance: Int
    /// The sum of all grants.
    public var granted: Int
    /// Every `hint.used`.
    public var used: Int
    /// `hint.used` of kind `fifty_fifty`.
    public var usedFiftyFifty: Int
    /// `hint.used` of kind `reveal`.
    public var usedReveal: Int
    /// How far the true balance is above ``balance`` when that is held at
    /// 2^63 − 1 (docs/projections.md: counts stay at 2^63 − 1): uses take
    /// from it first, so 1,100 grants of 2^53 − 1 and a few uses still show
    /// 2^63 − 1. Itself held at 2^63 − 1.
    package var aboveBalance = 0

    /// Makes a hint balance.
    public init(balance: Int = 0, granted: Int = 0, used: Int = 0, usedFiftyFifty: Int = 0, usedReveal: Int = 0) {
        self.balance = balance; self.granted = granted; self.used = used
        self.usedFiftyFifty = usedFiftyFifty; self.usedReveal = usedReveal
    }
}
