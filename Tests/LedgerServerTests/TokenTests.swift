import Testing
@testable import LedgerServer

/// Tokens against RFC 7515's worked example (appendix A.1, HS256) and
/// RFC 4648's base64url vectors; the refusals of each kind.
@Suite("Tokens")
struct TokenTests {
    /// RFC 7515 A.1: the JWK `k` of the example's key.
    static let rfcKey = Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow") ?? []
    /// RFC 7515 A.1's JWS (its payload has `exp` 1300819380 and no `sub`).
    static let rfcToken = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    static func refusal(_ token: String, key: [UInt8] = rfcKey, now: Double) -> String? {
        do { _ = try TokenVerifier(secret: key).verify(token: token, now: now); return nil } catch { return error.message }
    }

    @Test("RFC 7515 A.1: the signature checks; the claims come after it (the example has no sub)")
    func rfcExample() {
        #expect(Self.rfcKey.count == 64)
        #expect(Self.refusal(Self.rfcToken, now: 1_300_819_379)?.contains("no sub") == true)
        // One byte of the signature changed: refused before any claim is read.
        let forged = String(Self.rfcToken.dropLast()) + "Y"
        #expect(Self.refusal(forged, now: 1_300_819_379)?.contains("signature does not match") == true)
        var otherKey = Self.rfcKey
        otherKey[0] ^= 1
        #expect(Self.refusal(Self.rfcToken, key: otherKey, now: 1_300_819_379)?.contains("signature does not match") == true)
    }

    @Test("RFC 4648 section 10 vectors, base64url without padding")
    func base64url() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("Zg==") == nil)   // padding
        #expect(Base64URL.decode("Z") == nil)      // no encoding has 4k + 1 characters
        #expect(Base64URL.decode("Zh") == nil)     // unused bits set
        #expect(Base64URL.decode("Zm+v") == nil)   // base64, not base64url
    }

    @Test("alg none, another alg, a missing exp, sub or scope are refused")
    func refusals() {
        let key = [UInt8](repeating: 7, count: 32)
        func token(header: String, payload: String, signWith: [UInt8]? = nil) -> String {
            let h = Base64URL.encode(Array(header.utf8)), p = Base64URL.encode(Array(payload.utf8))
            let signature = Base64URL.encode(HMACSHA256Bridge.code(signWith ?? key, Array("\(h).\(p)".utf8)))
            return "\(h).\(p).\(signature)"
        }
        let good = #"{"sub":"u-1","scope":"learner","exp":2000}"#
        #expect(Self.refusal(token(header: #"{"alg":"HS256"}"#, payload: good), key: key, now: 1000) == nil)
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array(good.utf8)) + "."
        #expect(Self.refusal(none, key: key, now: 1000)?.contains(#"alg is "none""#) == true)
        #expect(Self.refusal(token(header: #"{"alg":"HS512"}"#, payload: good), key: key, now: 1000)?.contains("only HS256") == true)
        #expect(Self.refusal(token(header: #"{"alg":"HS256"}"#, payload: #"{"sub":"u-1","scope":"learner"}"#), key: key, now: 1000)?.contains("no exp") == true)
        #expect(Self.refusal(token(header: #"{"alg":"HS256"}"#, payload: #"{"scope":"learner","exp":2000}"#), key: key, now: 1000)?.contains("no sub") == true)
        #expect(Self.refusal(token(header: #"{"alg":"HS256"}"#, payload: #"{"sub":"u","scope":"root","exp":2000}"#), key: key, now: 1000)?.contains("scope") == true)
        #expect(Self.refusal(token(header: #"{"alg":"HS256"}"#, payload: good), key: key, now: 2000)?.contains("expired") == true)
        #expect(Self.refusal(token(header: #"{"alg":"HS256"}"#, payload: #"{"sub":"u","scope":"admin","exp":2000,"nbf":1500}"#), key: key, now: 1000)?.contains("not valid before") == true)
        #expect(Self.refusal("not-a-token", key: key, now: 1000)?.contains("three base64url parts") == true)
    }

    @Test("the verified token of a connection is not verified again, but its exp still is")
    func known() throws {
        let verifier = TokenVerifier(secret: Array(repeating: 1, count: 32))
        let token = Token(subject: "u", scope: .learner, expires: 100)
        #expect((try? verifier.verify(authorization: "Bearer x", now: 50, known: ("Bearer x", token))) == token)
        #expect(throws: HTTPError.self) { try verifier.verify(authorization: "Bearer x", now: 100, known: ("Bearer x", token)) }
        #expect(throws: HTTPError.self) { try verifier.verify(authorization: "Bearer y", now: 50, known: ("Bearer x", token)) }
    }
}

import Ledger

/// HMAC from the Ledger module, for minting test tokens.
enum HMACSHA256Bridge {
    static func code(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] { HMACSHA256(key: key).authenticationCode(for: message) }
}
