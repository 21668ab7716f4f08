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
    /// The app's stable id of what the question asks the learner to remember
    /// (the question's id in the app's bank, the same in every quiz that shows
    /// it): 1 to 256 characters, no control characters. Format version 2's
    /// optional member (events-v2.md); the line keeps `v` 1. With it, the
    /// review item is this id alone.
    public var item: String?
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Makes an `answer.selected` payload.
    public init(attempt: String, question: String, choice: Int, correct: Bool, correctChoice: Int? = nil,
                skill: String? = nil, ms: Int? = nil, item: String? = nil, extra: [JSONMember] = []) {
        self.attempt = attempt; self.question = question; self.choice = choice; self.correct = correct
        self.correctChoice = correctChoice; self.skill = skill; self.ms = ms; self.item = item; self.extra = extra
    }
}

extension AnswerSelected: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember {
        case attempt, question, choice, correct, correctChoice = "correct_choice", skill, ms, item
        /// `item` is version 2's (events-v2.md), and refuses control characters.
        package var version: Int { self == .item ? 2 : 1 }
        package var noControl: Bool { self == .item }
    }
    package static var eventType: EventType { .answerSelected }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(attempt: try d.string(.attempt), question: try d.string(.question), choice: try d.integer(.choice),
                  correct: try d.bool(.correct), correctChoice: try d.optionalInteger(.correctChoice),
                  skill: try d.optionalString(.skill), ms: try d.optionalInteger(.ms), item: try d.optionalString(.item),
                  extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.string(.attempt, attempt); w.string(.question, question); w.integer(.choice, choice); w.bool(.correct, correct)
        w.integer(.correctChoice, correctChoice); w.string(.skill, skill); w.integer(.ms, ms); w.string(.item, item); w.extra(extra)
    }
}
