/// `progress.reset`: the learner cleared progress in a scope.
public struct ProgressReset: Sendable, Hashable {
    /// What was cleared.
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// Everything but the hint balance.
        case all
        /// Quiz attempts.
        case quizzes
        /// Puzzles.
        case puzzles
        /// Submissions.
        case submissions

        /// Whether a reset of this scope clears `other`'s projections.
        public func covers(_ other: Scope) -> Bool { self == .all || self == other }
    }
    /// The scope cleared.
    public var scope: Scope
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// Makes a `progress.reset` payload.
    public init(scope: Scope, extra: [JSONMember] = []) {
        self.scope = scope; self.extra = extra
    }
}

extension ProgressReset: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember { case scope }
    package static var eventType: EventType { .progressReset }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(scope: try d.enumeration(.scope), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.enumeration(.scope, scope); w.extra(extra)
    }
}
