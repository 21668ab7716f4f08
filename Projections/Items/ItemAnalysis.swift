import Events

/// Question analysis: per quiz and question, how learners answered; per quiz,
/// how many attempts started, finished, were abandoned, and after how many
/// answers learners gave up; per submitted content and question, how learners
/// answered. Built by `ItemsBuilder`; printed as JSON, and as CSV, text or
/// HTML by the `Rendering` module.
public struct ItemAnalysis: Sendable, Hashable {
    /// One chosen option index and how often it was chosen.
    public struct ChoiceCount: Sendable, Hashable {
        /// The option index.
        public var choice: Int
        /// How many counted answers chose it.
        public var count: Int
    }

    /// One question of a quiz or of a submitted content.
    public struct Question: Sendable, Hashable {
        /// The question id.
        public var question: String
        /// Counted answers.
        public var answers = 0
        /// The right ones.
        public var correct = 0
        /// Every chosen index, by index.
        public var choices: [ChoiceCount] = []
        /// The most chosen index among wrong answers (ties: the lowest); nil if none.
        public var topWrongChoice: Int?
        /// The corrected point-biserial over finished attempts, times 100, rounded half away
        /// from zero; nil under 10 attempts or without variance (quizzes only).
        public var discriminationHundredths: Int?
        /// The median `ms` (lower middle), nil if no answer carries it (quizzes only).
        public var medianMs: Int?
        /// Answers given after a hint on the question in the same attempt (quizzes only).
        public var hinted = 0

        /// Percent right (the spec's rounding); nil with no answer.
        public var pCorrect: Int? { Percent.of(correct, answers) }

        /// The discrimination as a decimal with 2 places (`0.35`, `-1.00`); nil when null.
        public var discrimination: String? {
            discriminationHundredths.map { h in
                let m = abs(h)
                return (h < 0 ? "-" : "") + "\(m / 100)." + Day.pad(m % 100, 2)
            }
        }
    }

    /// The abandoned attempts that had `answered` counted answers.
    public struct DropOff: Sendable, Hashable {
        /// The abandoned attempts' counted answers.
        public var answered: Int
        /// How many abandoned attempts had that many.
        public var attempts: Int
    }

    /// One quiz: its attempts and its questions.
    public struct Quiz: Sendable, Hashable {
        /// The quiz id.
        public var quiz: String
        /// Attempts started (first starts) whose day is in the range.
        public var started = 0
        /// Of those, finished by the end of the log.
        public var finished = 0
        /// Of those, abandoned by the end of the log.
        public var abandoned = 0
        /// Abandoned attempts by their number of counted answers, ascending.
        public var droppedAfter: [DropOff] = []
        /// Its questions, by question id (code point order).
        public var questions: [Question] = []
    }

    /// One submitted content: its questions.
    public struct Content: Sendable, Hashable {
        /// The content id.
        public var content: String
        /// Submissions whose day is in the range.
        public var submissions = 0
        /// Its questions, by question id.
        public var questions: [Question] = []
    }

    /// The first day counted; nil when not given (no lower bound).
    public var from: Day?
    /// The last day counted; nil when not given.
    public var to: Day?
    /// Per quiz, by quiz id.
    public var quizzes: [Quiz]
    /// Per submitted content, by content id.
    public var contents: [Content]

    /// Fewer finished attempts than this give no discrimination.
    public static let minimumForDiscrimination = 10
}
