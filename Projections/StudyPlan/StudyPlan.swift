import Events

/// What the learner should study: per category and skill, the last 20 answers.
public struct StudyPlan: Sendable, Hashable {
    /// How well a skill is mastered.
    public enum Level: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// At least 3 counted answers and percent >= 80.
        case strength
        /// At least 3 counted answers and percent < 60.
        case weakness
        /// At least 3 counted answers, neither.
        case developing
        /// Fewer than 3 counted answers.
        case insufficient

        /// The level as printed.
        public var description: String { rawValue }

        /// The level of `total` counted answers at `percent` (the rounded integer).
        public static func of(total: Int, percent: Int) -> Level {
            guard total >= 3 else { return .insufficient }
            if percent >= 80 { return .strength }
            if percent < 60 { return .weakness }
            return .developing
        }
    }

    /// One skill of one category, over its counted answers.
    public struct SkillResult: Sendable, Hashable {
        /// The category (nil for quiz answers whose quiz had none).
        public var category: String?
        /// The skill.
        public var skill: String
        /// Correct counted answers (an answer after a hint counts as wrong).
        public var correct: Int
        /// Counted answers (at most the 20 most recent).
        public var total: Int
        /// Percent correct, halves up.
        public var percent: Int
        /// Its level.
        public var level: Level

        /// Makes a skill result; `percent` and `level` follow from `correct` and `total` (>= 1).
        public init(category: String?, skill: String, correct: Int, total: Int) {
            self.category = category; self.skill = skill; self.correct = correct; self.total = total
            self.percent = Percent.of(correct, total) ?? 0
            self.level = Level.of(total: total, percent: percent)
        }
    }

    /// One category of the plan.
    public struct Category: Sendable, Hashable {
        /// The category name; nil for quizzes without one.
        public var category: String?
        /// Whether a diagnostic of this category was completed.
        public var diagnosticCompleted: Bool
        /// Every skill with a counted answer, by name.
        public var skills: [SkillResult]
        /// The skills that are strengths, strongest first.
        public var strengths: [SkillResult]
        /// The skills that are weaknesses, weakest first.
        public var weaknesses: [SkillResult]

        /// Makes a category; `strengths` and `weaknesses` are picked from `skills`.
        public init(category: String?, diagnosticCompleted: Bool, skills: [SkillResult]) {
            self.category = category; self.diagnosticCompleted = diagnosticCompleted; self.skills = skills
            self.strengths = StudyPlan.rankStrengths(skills.filter { $0.level == .strength })
            self.weaknesses = StudyPlan.rankWeaknesses(skills.filter { $0.level == .weakness })
        }
    }

    /// The categories, by name, nil last.
    public var categories: [Category]
    /// All strengths, by percent descending, total descending, skill, category (nil first).
    public var strengths: [SkillResult]
    /// All weaknesses, by percent ascending, total descending, skill, category (nil first).
    public var weaknesses: [SkillResult]
    /// Content ids to study for the weaknesses (with a catalog), at most 5.
    public var recommended: [String]

    /// Makes a plan; the top-level strengths and weaknesses are gathered from the categories.
    public init(categories: [Category] = [], recommended: [String] = []) {
        self.categories = categories
        self.strengths = StudyPlan.rankStrengths(categories.flatMap(\.strengths))
        self.weaknesses = StudyPlan.rankWeaknesses(categories.flatMap(\.weaknesses))
        self.recommended = recommended
    }

    static func rankStrengths(_ skills: [SkillResult]) -> [SkillResult] {
        skills.sorted { a, b in
            if a.percent != b.percent { return a.percent > b.percent }
            return tieBreak(a, b)
        }
    }

    static func rankWeaknesses(_ skills: [SkillResult]) -> [SkillResult] {
        skills.sorted { a, b in
            if a.percent != b.percent { return a.percent < b.percent }
            return tieBreak(a, b)
        }
    }

    /// Total descending, then skill, then category (nil first), by code point.
    private static func tieBreak(_ a: SkillResult, _ b: SkillResult) -> Bool {
        if a.total != b.total { return a.total > b.total }
        if !CodePoint.equal(a.skill, b.skill) { return CodePoint.less(a.skill, b.skill) }
        return CodePoint.less(nilFirst: a.category, b.category)
    }
}
