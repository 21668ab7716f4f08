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

    /// How hard a difficulty makes a question: subtracted from the chance to be right.
    static func penalty(of difficulty: String) -> Double {
        Double(difficulties.firstIndex(of: difficulty) ?? 2) * 0.06 - 0.1
    }
}
