import Events
import Ledger

/// Makes HS256 tokens the server accepts, as an app's backend does after its
/// sign-in (docs/sync.md shows the same in Python): for the benchmarks and
/// tools of this package. The tests mint theirs with Python's standard
/// library, written apart from this.
package struct TokenMinter: Sendable {
    private let key: HMACSHA256

    /// A minter signing with `secret`.
    package init(secret: [UInt8]) { key = HMACSHA256(key: secret) }

    /// A token for `subject` with `scope` (`learner` or `admin`), expiring at `expires` (seconds since 1970).
    package func token(subject: String, scope: String, expires: Int) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        var w = JSONWriter()
        w.value(.object([JSONMember("sub", .string(subject)), JSONMember("scope", .string(scope)),
                         JSONMember("exp", .number(String(expires)))]))
        let signed = header + "." + Base64URL.encode(w.bytes)
        return signed + "." + Base64URL.encode(key.authenticationCode(for: Array(signed.utf8)))
    }
}
