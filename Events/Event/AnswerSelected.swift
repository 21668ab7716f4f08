/// `answer.selected`: a learner chose an option for a question of an attempt.
public struct AnswerSelected: Sendable, Hashable {
    /// A started attempt of this user.
    public var attempt: String
    /// Question id (or its index as a string).
    public var question: String
    /// The option index chosen (>= 0).
    public var choice: Int
    /// Whether the choice was right.
    public var correct: Bool
    /// The right option, for review screens.
    public var correctChoice: Int?
    /// The skill or topic the question tests.
    public var skill: String?
    /// Milliseconds spent on the question.
    public var ms: Int?
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Makes an `answer.selected` payload.
    public init(attempt: String, question: String, choice: Int, correct: Bool, correctChoice: Int? = nil,
                skill: String? = nil, ms: Int? = nil, extra: [JSONMember] = []) {
        self.attempt = attempt; self.question = question; self.choice = choice; self.correct = correct
        self.correctChoice = correctChoice; self.skill = skill; self.ms = ms; self.extra = extra
    }
}
