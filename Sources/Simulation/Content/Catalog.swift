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

    /// Items in each category's bank of questions.
    static let bankSize = 24

    /// The bank item `n` of a category: `math-bank-07`, a stable id every quiz,
    /// lesson and review that shows the question gives as `item`.
    static func bankItem(_ category: String, _ n: Int) -> String { "\(category)-bank-" + Day.pad(n % bankSize, 2) }

    /// The right choice (0 to 3) of a bank item: one question, one right
    /// choice, whichever quiz, lesson or review shows it and whoever answers.
    static func rightChoice(_ item: String) -> Int {
        Int(stableHash(item) % 4)
    }

    /// The skill a bank item tests: its category's skills in turn.
    static func skill(of item: String) -> String {
        guard let category = categories.first(where: { item.hasPrefix($0.name + "-bank-") }),
              let n = Int(item.dropFirst(category.name.count + 6)) else { return "general" }
        return category.skills[n % category.skills.count]
    }

    /// `count` distinct items of a category's bank from a starting point of
    /// `key`: the same for every learner.
    private static func sample(_ category: String, key: String, count: Int, offset: Int = 0) -> [String] {
        let start = Int(stableHash(key, salt: "bank") % UInt64(bankSize))
        // 7 and 24 are coprime: the first 24 steps visit every item once.
        return (0..<count).map { bankItem(category, start + (offset + $0) * 7) }
    }

    /// The bank items of a quiz's questions (daily, category or diagnostic
    /// quiz), in order: drawn from its category's bank, so they return in
    /// later quizzes. The same for every learner.
    static func items(ofQuiz quiz: String, count: Int) -> [String] {
        let category: String
        if quiz.hasPrefix("daily-"), let day = Day(String(quiz.dropFirst(6))) {
            category = dailyQuiz(on: day).theme.category
        } else {
            let name = quiz.hasPrefix("diagnostic-") ? String(quiz.dropFirst(11)) : String(quiz.prefix { $0 != "-" })
            category = categories.first { $0.name == name }?.name ?? "reading"
        }
        return sample(category, key: quiz, count: count)
    }

    /// The bank item of question `q` (0-based) of a lesson or passage of `category`.
    static func item(ofContent content: String, category: String, question q: Int) -> String {
        sample(category, key: content, count: 1, offset: q)[0]
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
