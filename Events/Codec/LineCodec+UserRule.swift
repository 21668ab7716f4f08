extension LineCodec {
    /// Why `user` cannot be a learner's id, by the envelope's rule for `user`
    /// (1 to 128 characters, no control characters); nil when it can. For
    /// ids that come from elsewhere than a line (a server's URL).
    package static func userProblem(_ user: String) -> String? {
        Array(user.utf8).withUnsafeBytes { TextRule.name.problem($0) }
    }
}
