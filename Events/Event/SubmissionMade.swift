/// `submission.made`: a lesson's or passage's answers submitted at once.
public struct SubmissionMade: Sendable, Hashable {
    /// Lesson or passage.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A lesson.
        case lesson
        /// A reading passage.
        case passage
    }
    /// One answered item of a submission.
    public struct Answer: Sendable, Hashable {
        /// The question id (distinct within the submission).
        public var question: String
        /// The option chosen (>= 0).
        public var choice: Int
        /// Whether it was right.
        public var correct: Bool
        /// The skill it tests.
        public var skill: String?
        /// The app's stable id of what the question asks the learner to
        /// remember, as ``AnswerSelected/item`` (format version 2's optional member).
        public var item: String?
        /// Members the format does not define, kept as written.
        public var extra: [JSONMember]

        /// Makes an answered item.
        public init(question: String, choice: Int, correct: Bool, skill: String? = nil, item: String? = nil,
                    extra: [JSONMember] = []) {
            self.question = question; self.choice = choice; self.correct = correct
            self.skill = skill; self.item = item; self.extra = extra
        }
    }
    /// Lesson or passage id.
    public var content: String
    /// `lesson` or `passage`.
    public var kind: Kind
    /// Category, e.g. `reading`.
    public var category: String
    /// A diagnostic submission; nil when not written (false).
    public var diagnostic: Bool?
    /// Time spent.
    public var seconds: Int?
    /// The answers, questions distinct; may be empty.
    public var answers: [Answer]
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Whether this is a diagnostic (`diagnostic` defaults to false).
    public var isDiagnostic: Bool { diagnostic ?? false }

    /// The number of correct answers.
    public var correctCount: Int { answers.reduce(0) { $0 + ($1.correct ? 1 : 0) } }

    /// `round(100 * correct / answers)`, halves up; nil with no answers.
    public var score: Int? { Percent.of(correctCount, answers.count) }

    /// Makes a `submission.made` payload.
    public init(content: String, kind: Kind, category: String, diagnostic: Bool? = nil, seconds: Int? = nil,
                answers: [Answer], extra: [JSONMember] = []) {
        self.content = content; self.kind = kind; self.category = category; self.diagnostic = diagnostic
        self.seconds = seconds; self.answers = answers; self.extra = extra
    }
}

extension SubmissionMade: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember {
        case content, kind, category, diagnostic, seconds, answers
        package var items: (any PayloadMember.Type)? { self == .answers ? Answer.Member.self : nil }
    }
    package static var eventType: EventType { .submissionMade }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(content: try d.string(.content), kind: try d.enumeration(.kind), category: try d.string(.category),
                  diagnostic: try d.optionalBool(.diagnostic), seconds: try d.optionalInteger(.seconds),
                  answers: try d.objects(.answers), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.string(.content, content); w.enumeration(.kind, kind); w.string(.category, category)
        w.bool(.diagnostic, diagnostic); w.integer(.seconds, seconds); w.objects(.answers, answers); w.extra(extra)
    }
}

extension SubmissionMade.Answer: DataObject {
    /// An answer's members, in the format's order.
    package enum Member: String, PayloadMember {
        case question, choice, correct, skill, item
        /// `item` is version 2's (events-v2.md), and refuses control characters.
        package var version: Int { self == .item ? 2 : 1 }
        package var noControl: Bool { self == .item }
    }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(question: try d.comparedString(.question), choice: try d.integer(.choice), correct: try d.bool(.correct),
                  skill: try d.optionalString(.skill), item: try d.optionalString(.item), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.string(.question, question); w.integer(.choice, choice); w.bool(.correct, correct); w.string(.skill, skill); w.string(.item, item); w.extra(extra)
    }

    /// Questions are distinct within a submission (``DataObject/distinct``:
    /// checked on the built answers and, by the second stage, on their bytes).
    package static var distinct: Distinct<Self>? { Distinct(.question, { $0.question }, rule: "must be distinct within a submission") }
}

/// Integer percentages as the spec defines them.
public enum Percent {
    /// `round(100 * part / whole)` with halves rounded up; nil when `whole` is 0.
    /// Exact for every `part` and `whole` (wider arithmetic where `200 * part`
    /// would overflow); a result beyond `Int` is held at its end.
    public static func of(_ part: Int, _ whole: Int) -> Int? {
        guard whole > 0 else { return nil }
        guard part >= 0 else {
            // Not met by any projection (parts are counts); kept total and exact where it fits.
            let (m, o1) = part.multipliedReportingOverflow(by: 200)
            let (numerator, o2) = m.addingReportingOverflow(whole)
            guard !o1, !o2, whole <= Int.max / 2 else { return Int.min }
            let denominator = 2 * whole
            return numerator >= 0 ? numerator / denominator : -((-numerator + denominator - 1) / denominator)
        }
        // round(100 * part / whole) = 100 * q + round(100 * r / whole), part = q * whole + r.
        let q = part / whole, r = UInt(part % whole), w = UInt(whole)
        // floor((200 * r + whole) / (2 * whole)), in 128 bits: 200 * r passes 2^64.
        let product = UInt(200).multipliedFullWidth(by: r)
        let (low, carry) = product.low.addingReportingOverflow(w)
        let rounded = Int((2 * w).dividingFullWidth((product.high + (carry ? 1 : 0), low)).quotient)
        return q.saturating(times: 100).saturating(plus: rounded)
    }
}
