import Events

/// Which `progress.reset` events a fold applies (projections.md, "Resets").
/// The spec differs in one place: the report's `streaks`.
package enum ResetPolicy: Sendable, Hashable {
    /// Every reset read, whatever its day: `state` (`state --day D` too, which
    /// reads every kept event), and the leaderboard (`state --day LAST`).
    case every
    /// Only the resets on days up to this one: the report's streaks at `to`,
    /// "from that user's events on days up to `to` only", so a report of a past
    /// range never changes when a later reset is appended.
    case through(Day)

    /// Whether a reset on `day` applies.
    @inline(__always)
    func applies(on day: Day) -> Bool {
        switch self {
        case .every: true
        case .through(let last): day <= last
        }
    }
}
