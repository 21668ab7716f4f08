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
