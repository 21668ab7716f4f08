import Events
/// What a verified token says: who (`sub`), with which scope, until when.
struct Token: Sendable, Equatable {
    /// What a token lets its holder do.
    enum Scope: String, Sendable, Hashable {
        /// Only the endpoints of the learner `sub`.
        case learner
        /// Every endpoint.
        case admin
    }

    /// The `sub` claim: the learner (for `learner` scope) or the operator.
    var subject: String
    /// The `scope` claim.
    var scope: Scope
    /// The `exp` claim, seconds since 1970-01-01 UTC.
    var expires: Double
    /// The `nbf` claim, if given.
    var notBefore: Double?

    /// Whether the token may act for `user`: an admin's for anyone, a learner's for
    /// itself, `sub` and `user` compared by their code points (no normalization).
    func mayAct(for user: String) -> Bool { scope == .admin || CodePoint.equal(subject, user) }

    /// Equal when every claim is, `sub` by its code points.
    static func == (a: Token, b: Token) -> Bool {
        CodePoint.equal(a.subject, b.subject) && a.scope == b.scope && a.expires == b.expires && a.notBefore == b.notBefore
    }
}
