/// Which days count as active for the streak (`--streak-on`).
public enum StreakMode: String, Sendable, Hashable, CaseIterable {
    /// A day with a finished daily quiz attempt (started that day).
    case daily
    /// Also a day with any finished quiz (by its start day), a completed puzzle or a submission.
    case any
}
