import Events

/// What to study for each skill: a mapping from a skill to content ids
/// (lessons, passages), as given by `--catalog FILE`.
public struct Catalog: Sendable, Hashable {
    /// How many content ids `recommended` holds at most.
    public static let maxRecommendations = 5

    private var contents: [ExactString: [String]]

    /// Makes a catalog from a decoded mapping of skill to content ids.
    public init(_ mapping: [String: [String]]) {   // not a format string: the app's own dictionary; --catalog FILE is read by code points
        var contents: [ExactString: [String]] = [:]
        for (skill, ids) in mapping { contents[ExactString(skill)] = ids }
        self.contents = contents
    }

    init(exact contents: [ExactString: [String]]) { self.contents = contents }

    /// The content ids for a skill, in catalog order; empty when the skill is not in the catalog.
    public func contents(for skill: String) -> [String] { contents[ExactString(skill)] ?? [] }

    /// For each weakness in order, its contents not yet mastered; at most
    /// ``maxRecommendations``, no repeats.
    package func recommend(for weaknesses: [StudyPlan.SkillResult], mastered: (String) -> Bool) -> [String] {
        var picked: [String] = []
        var seen: Set<ExactString> = []
        for weakness in weaknesses {
            for content in contents(for: weakness.skill) where !mastered(content) {
                guard picked.count < Self.maxRecommendations else { return picked }
                if seen.insert(ExactString(content)).inserted { picked.append(content) }
            }
        }
        return picked
    }
}
