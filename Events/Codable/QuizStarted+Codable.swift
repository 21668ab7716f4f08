/// `quiz.started` is stored with its members under their Swift names; the
/// optional ones are absent (JSON) or null when not written.
extension QuizStarted: Codable {
    private enum CodingKeys: String, CodingKey {
        case attempt, quiz, questions, daily, title, category, difficulty, diagnostic, extra
    }

    /// Reads the members; `extra` may be absent (no unknown members).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(attempt: try c.decode(String.self, forKey: .attempt),
                  quiz: try c.decode(String.self, forKey: .quiz),
                  questions: try c.decode(Int.self, forKey: .questions),
                  daily: try c.decodeIfPresent(Bool.self, forKey: .daily),
                  title: try c.decodeIfPresent(String.self, forKey: .title),
                  category: try c.decodeIfPresent(String.self, forKey: .category),
                  difficulty: try c.decodeIfPresent(String.self, forKey: .difficulty),
                  diagnostic: try c.decodeIfPresent(Bool.self, forKey: .diagnostic),
                  extra: try c.decodeIfPresent([JSONMember].self, forKey: .extra) ?? [])
    }

    /// Writes the members.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(attempt, forKey: .attempt)
        try c.encode(quiz, forKey: .quiz)
        try c.encode(questions, forKey: .questions)
        try c.encodeIfPresent(daily, forKey: .daily)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(category, forKey: .category)
        try c.encodeIfPresent(difficulty, forKey: .difficulty)
        try c.encodeIfPresent(diagnostic, forKey: .diagnostic)
        try c.encode(extra, forKey: .extra)
    }
}
