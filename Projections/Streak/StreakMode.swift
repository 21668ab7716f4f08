/// Which days count as active for the streak (`--streak-on`).
public enum StreakMode: String, Sendable, Hashable, CaseIterable {
    /// A day with a finished daily quiz attempt (started that day).
    case daily
    /// Also a day with any finished quiz (by its start day), a completed puzzle or a submission.
    case any
}

// MARK: - Codable
// Synthesized here because Swift synthesizes Codable only in the type's own file;
// it makes the live projector serialisable (see Projections/Snapshot/).

extension StreakMode: Codable {}
