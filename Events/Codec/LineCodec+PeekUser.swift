extension LineCodec {
    /// What a cheap look at a line's top-level `user` member says about whose line it is.
    package enum UserMatch: Sendable, Hashable {
        /// The line is the user's: if it decodes, its `user` has exactly the bytes asked about.
        case same
        /// The line is another user's: if it decodes, its `user` has other bytes.
        case other
        /// The look could not tell (escapes, no plain `user` member, not an object): decode the line.
        case unknown
    }

    /// The bytes of a line's top-level `user` string, found without decoding the line.
    ///
    /// Returns the range (in `line`) of the string's content when the member's
    /// name and value are written without escapes, nil otherwise. Exact on every
    /// line that decodes: `user` inside `data` or inside another string is never
    /// taken for it. It does not validate the line; a line it answers for may
    /// still fail to decode.
    package static func peekUser(_ line: UnsafeRawBufferPointer) -> Range<Int>? {
        let skim = Skim(line)
        // The writer's own beginning first (every line the ledger wrote), then any object.
        return skim.writersUser() ?? skim.topLevelString("user")
    }

    /// Whether a line is `user`'s, from ``peekUser(_:)``, comparing the UTF-8
    /// bytes exactly (no normalisation), as `state --user` compares users.
    package static func peekUser(_ line: UnsafeRawBufferPointer, matches user: String) -> UserMatch {
        guard let range = peekUser(line) else { return .unknown }
        return UnsafeRawBufferPointer(rebasing: line[range]).elementsEqual(user.utf8) ? .same : .other
    }
}
