import Events

/// The made-up content the simulated learners work through: categories and
/// their skills, daily quizzes, category quizzes, puzzles, lessons and passages.
enum Catalog {
    /// A subject with the skills its questions test.
    struct Category: Sendable {
        let name: String
        let skills: [String]
    }

    /// A daily quiz theme: its title, category and skills.
    struct DailyTheme: Sendable {
        let title: String
        let category: String
        let skills: [String]
    }

    static let categories: [Category] = [
        Category(name: "reading", skills: ["inference", "main_idea", "tone", "vocabulary"]),
        Category(name: "math", skills: ["algebra", "fractions", "geometry", "ratios"]),
        Category(name: "history", skills: ["causes", "chronology", "sources"]),
        Category(name: "writing", skills: ["grammar", "punctuation", "structure"]),
    ]

    static let dailyThemes: [DailyTheme] = [
        DailyTheme(title: "Quran Basics", category: "history", skills: ["sources", "chronology"]),
        DailyTheme(title: "World Capitals", category: "history", skills: ["chronology", "causes"]),
        DailyTheme(title: "Fractions Warm-up", category: "math", skills: ["fractions", "ratios"]),
        DailyTheme(title: "Grammar Check", category: "writing", skills: ["grammar", "punctuation"]),
        DailyTheme(title: "Short Story Clues", category: "reading", skills: ["inference", "tone"]),
        DailyTheme(title: "Shapes and Angles", category: "math", skills: ["geometry", "algebra"]),
        DailyTheme(title: "Word Power", category: "reading", skills: ["vocabulary", "main_idea"]),
    ]

    static let difficulties = ["very_easy", "easy", "medium", "hard", "very_hard", "professor"]
    static let encodings = ["atbash", "caesar", "substitution", "vigenere"]

    /// The daily quiz of a day: the same for every learner.
    static func dailyQuiz(on day: Day) -> (id: String, theme: DailyTheme) {
        let theme = dailyThemes[(day.ordinal % dailyThemes.count + dailyThemes.count) % dailyThemes.count]
        return ("daily-\(day)", theme)
    }

    /// A category quiz id: `math-3-hard`.
    static func categoryQuiz(_ category: Category, number: Int, difficulty: String) -> String {
        "\(category.name)-\(number)-\(difficulty)"
    }

    /// The right choice (0 to 3) of a question of a quiz or of a submitted
    /// lesson or passage: the same for every learner, so the question
    /// analysis (`items`) sees one right answer per question.
    static func rightChoice(_ content: String, _ question: String) -> Int {
        Int(stableHash(content, question) % 4)
    }

    /// The skill a question of a lesson or passage tests, among `skills`: the same for every learner.
    static func skill(_ content: String, _ question: String, among skills: [String]) -> String {
        skills[Int(stableHash(content, question, salt: "skill") % UInt64(skills.count))]
    }

    /// How many questions a category quiz has (8, 10 or 12): the same for every learner.
    static func questions(of quiz: String) -> Int { [8, 10, 12][Int(stableHash(quiz, "") % 3)] }

    /// FNV-1a (64 bits) of the parts, each ended by a zero byte: a hash that
    /// never changes between runs, machines or toolchains (`Hasher` is seeded per process).
    private static func stableHash(_ parts: String..., salt: String = "") -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [salt] + parts {
            for byte in part.utf8 + [0] { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return h
    }

    /// How hard a difficulty makes a question: subtracted from the chance to be right.
    static func penalty(of difficulty: String) -> Double {
        Double(difficulties.firstIndex(of: difficulty) ?? 2) * 0.06 - 0.1
    }
}
