import Events
import Ledger

/// Checks `Authorization: Bearer JWT` tokens (RFC 7519, JWS compact
/// serialization, RFC 7515) signed with HS256 under the server's secret.
///
/// In order, each failing with `401 unauthorized` and saying why: three
/// base64url parts; a header that is a JSON object whose `alg` is exactly
/// `HS256` (`none` and every other algorithm refused, and any `crit`); the
/// signature, the HMAC-SHA-256 of `header.payload`, compared in constant
/// time, before a claim is read; then the claims: `exp` (required, a number,
/// in the future), `nbf` (if given, past), `sub` (a non-empty string) and
/// `scope` (`learner` or `admin`).
struct TokenVerifier: Sendable {
    private let key: HMACSHA256

    /// The verifier of tokens signed with `secret`.
    init(secret: [UInt8]) { key = HMACSHA256(key: secret) }

    /// The token in an `Authorization` field's value, checked at `now`
    /// (seconds since 1970-01-01 UTC). `known` is the field's value and
    /// token verified last on this connection: the same value is not
    /// verified again, only its times are checked.
    func verify(authorization: String?, now: Double, known: (String, Token)? = nil) throws(HTTPError) -> Token {
        // Compared as bytes in constant time: a connection a proxy reuses may
        // carry another client's token next (and String's == would also take
        // canonically equivalent Unicode for the same value).
        if let (value, token) = known, let authorization,
           HMACSHA256.equalInConstantTime(Array(value.utf8), Array(authorization.utf8)) {
            try checkTimes(token, now: now)
            return token
        }
        guard let authorization else {
            throw .unauthorized("an Authorization: Bearer token is required", tokenGiven: false)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw .unauthorized("the Authorization field must be 'Bearer TOKEN'", tokenGiven: false)
        }
        return try verify(token: parts[1].trimmingSpaces, now: now)
    }

    /// A compact JWS `token`, checked at `now`.
    func verify<S: StringProtocol>(token: S, now: Double) throws(HTTPError) -> Token {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .unauthorized("the token is not a JWT (three base64url parts joined by dots)") }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONDocument.parse(headerBytes),
              case .object(let headerMembers) = header else {
            throw .unauthorized("the token's header is not a base64url JSON object")
        }
        guard case .string(let alg)? = member("alg", of: headerMembers) else { throw .unauthorized("the token's header has no alg") }
        guard alg == "HS256" else { throw .unauthorized("the token's alg is \"\(alg)\"; only HS256 is accepted") }
        guard member("crit", of: headerMembers) == nil else { throw .unauthorized("the token's header has crit extensions, which this server does not know") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .unauthorized("the token's signature is not base64url") }
        let signed = token.utf8.prefix(parts[0].count + 1 + parts[1].count)
        guard HMACSHA256.equalInConstantTime(key.authenticationCode(for: signed), signature) else {
            throw .unauthorized("the token's signature does not match (signed with another secret, or changed)")
        }
        guard let payloadBytes = Base64URL.decode(parts[1]), let payload = try? JSONDocument.parse(payloadBytes),
              case .object(let claims) = payload else {
            throw .unauthorized("the token's payload is not a base64url JSON object")
        }
        guard case .number(let expText)? = member("exp", of: claims), let exp = Double(expText) else {
            throw .unauthorized("the token has no exp (a NumericDate) and tokens must expire")
        }
        var notBefore: Double? = nil
        if let nbf = member("nbf", of: claims) {
            guard case .number(let text) = nbf, let value = Double(text) else { throw .unauthorized("the token's nbf is not a number") }
            notBefore = value
        }
        guard case .string(let subject)? = member("sub", of: claims), !subject.isEmpty else {
            throw .unauthorized("the token has no sub (the learner it is for)")
        }
        guard case .string(let scopeText)? = member("scope", of: claims), let scope = Token.Scope(rawValue: scopeText) else {
            throw .unauthorized("the token's scope must be \"learner\" or \"admin\"")
        }
        let token = Token(subject: subject, scope: scope, expires: exp, notBefore: notBefore)
        try checkTimes(token, now: now)
        return token
    }

    /// `exp` in the future and `nbf`, if given, past.
    func checkTimes(_ token: Token, now: Double) throws(HTTPError) {
        guard now < token.expires else { throw .unauthorized("the token expired at \(Self.text(token.expires)) (now \(Int(now)))") }
        if let notBefore = token.notBefore, now < notBefore {
            throw .unauthorized("the token is not valid before \(Self.text(notBefore)) (now \(Int(now)))")
        }
    }

    private static func text(_ time: Double) -> String {
        time == time.rounded() && abs(time) < 1e15 ? String(Int(time)) : String(time)
    }

    private func member(_ name: String, of members: [JSONMember]) -> JSONValue? {
        members.first { $0.name == name }?.value
    }
}
