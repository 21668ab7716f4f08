/// `quiz.started`: a learner opened a quiz (daily, category or diagnostic).
public struct QuizStarted: Sendable, Hashable {
    /// New attempt id, unique per user.
    public var attempt: String
    /// Which quiz: its content id or title.
    public var quiz: String
    /// How many questions this attempt has (>= 1).
    public var questions: Int
    /// True for the daily quiz; nil when not written (false).
    public var daily: Bool?
    /// Display title.
    public var title: String?
    /// Category, e.g. `reading`.
    public var category: String?
    /// Difficulty, e.g. `very_easy`.
    public var difficulty: String?
    /// True for a diagnostic test; nil when not written (false).
    public var diagnostic: Bool?
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Whether this is the daily quiz (`daily` defaults to false).
    public var isDaily: Bool { daily ?? false }
    /// Whether this is a diagnostic (`diagnostic` defaults to false).
    public var isDiagnostic: Bool { diagnostic ?? false }

    /// Makes a `quiz.started` payload.
    public init(attempt: String, quiz: String, questions: Int, daily: Bool? = nil, title: String? = nil,
                category: String? = nil, difficulty: String? = nil, diagnostic: Bool? = nil,
                extra: [JSONMember] = []) {
        self.attempt = attempt; self.quiz = quiz; self.questions = questions; self.daily = daily
        self.title = title; self.category = category; self.difficulty = difficulty
        self.diagnostic = diagnostic; self.extra = extra
    }
}

extension QuizStarted: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember {
        case attempt, quiz, questions, daily, title, category, difficulty, diagnostic
        package var minimum: Int { self == .questions ? 1 : 0 }
    }
    package static var eventType: EventType { .quizStarted }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(attempt: try d.string(.attempt), quiz: try d.string(.quiz), questions: try d.integer(.questions),
                  daily: try d.optionalBool(.daily), title: try d.optionalString(.title), category: try d.optionalString(.category),
                  difficulty: try d.optionalString(.difficulty), diagnostic: try d.optionalBool(.diagnostic), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.string(.attempt, attempt); w.string(.quiz, quiz); w.integer(.questions, questions); w.bool(.daily, daily)
        w.string(.title, title); w.string(.category, category); w.string(.difficulty, difficulty)
        w.bool(.diagnostic, diagnostic); w.extra(extra)
    }
}
