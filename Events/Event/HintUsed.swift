/// `hint.used`: a learner spent a hint on a question.
public struct HintUsed: Sendable, Hashable {
    /// The two kinds of hint.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Eliminates two wrong options.
        case fiftyFifty = "fifty_fifty"
        /// Shows the right option.
        case reveal
    }
    /// A started attempt.
    public var attempt: String
    /// The question.
    public var question: String
    /// Which hint.
    public var hint: Kind
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Makes a `hint.used` payload.
    public init(attempt: String, question: String, hint: Kind, extra: [JSONMember] = []) {
        self.attempt = attempt; self.question = question; self.hint = hint; self.extra = extra
    }
}

extension HintUsed: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember { case attempt, question, hint }
    package static var eventType: EventType { .hintUsed }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(attempt: try d.string(.attempt), question: try d.string(.question), hint: try d.enumeration(.hint), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.string(.attempt, attempt); w.string(.question, question); w.enumeration(.hint, hint); w.extra(extra)
    }
}
