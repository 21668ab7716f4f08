/// HMAC-SHA-256 (RFC 2104, with SHA-256: RFC 4231) on the ledger's own
/// SHA-256: what signs and checks a server's tokens (JWT `HS256`).
///
/// ```swift
/// let key = HMACSHA256(key: secret)
/// let tag = key.authenticationCode(for: Array("header.payload".utf8))
/// HMACSHA256.equalInConstantTime(tag, givenTag)
/// ```
package struct HMACSHA256: Sendable {
    /// The key padded to SHA-256's block, XORed with the inner and outer pads.
    private let innerPad: [UInt8]
    private let outerPad: [UInt8]

    /// SHA-256's block size in bytes.
    private static let blockSize = 64

    /// Prepares `key` (any length: a longer one is hashed first, as RFC 2104 says).
    package init(key: [UInt8]) {
        var block = key.count > Self.blockSize ? SHA256.hash(key).bytes : key
        block += [UInt8](repeating: 0, count: Self.blockSize - block.count)
        innerPad = block.map { $0 ^ 0x36 }
        outerPad = block.map { $0 ^ 0x5C }
    }

    /// The 32-byte code of `message`.
    package func authenticationCode<Bytes: Collection<UInt8>>(for message: Bytes) -> [UInt8] {
        var inner = SHA256()
        inner.update(innerPad)
        inner.update(message)
        var outer = SHA256()
        outer.update(outerPad)
        outer.update(inner.finalize().bytes)
        return outer.finalize().bytes
    }

    /// Whether `a` and `b` hold the same bytes, in a time that depends only on
    /// their lengths (a forged signature learns nothing from how long the
    /// comparison took).
    package static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for k in a.indices { difference |= a[k] ^ b[k] }
        return difference == 0
    }
}
