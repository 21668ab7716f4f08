/// `quiz.finished` or `quiz.abandoned`: an attempt ended.
public struct AttemptEnded: Sendable, Hashable {
    /// The attempt that ended.
    public var attempt: String
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Makes the payload of an attempt's end.
    public init(attempt: String, extra: [JSONMember] = []) {
        self.attempt = attempt; self.extra = extra
    }
}

/// `quiz.finished` and `quiz.abandoned` share this payload and its rules.
extension AttemptEnded: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember { case attempt }
    package static var eventType: EventType { .quizFinished }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(attempt: try d.string(.attempt), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.string(.attempt, attempt); w.extra(extra)
    }
}
