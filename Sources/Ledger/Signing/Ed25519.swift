#if canImport(CryptoKit)
import CryptoKit
import Foundation
#elseif canImport(CLibcrypto)
import CLibcrypto
#endif

/// Ed25519 (RFC 8032) from the platform: CryptoKit on Apple platforms,
/// OpenSSL's libcrypto (a system library, Debian's `libssl-dev`) on Linux.
///
/// The one place the package calls a signature library, and the only caller
/// of `CLibcrypto`: the package has no signature code of its own. Keys are
/// handled as their 32-byte seeds (RFC 8032's private key) and 32-byte public
/// keys, signatures as 64 bytes, so the rest of the package never sees a
/// platform type.
package enum Ed25519 {
    /// The bytes of a private key's seed.
    package static let seedSize = 32
    /// The bytes of a public key.
    package static let publicKeySize = 32
    /// The bytes of a signature.
    package static let signatureSize = 64

    /// Why the platform's library refused a call, naming the call.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What failed, for a person.
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// A new private key, from the platform's secure random source.
    package static func newSeed() throws(Failure) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(Curve25519.Signing.PrivateKey().rawRepresentation)
        #elseif canImport(CLibcrypto)
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw Failure("EVP_PKEY_CTX_new_id failed") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw Failure("EVP_PKEY_keygen failed")
        }
        defer { EVP_PKEY_free(key) }
        return try filled(seedSize, by: "EVP_PKEY_get_raw_private_key") { EVP_PKEY_get_raw_private_key(key, &$0, &$1) }
        #else
        throw unavailable
        #endif
    }

    /// The public key of the private key `seed` (32 bytes).
    package static func publicKey(seed: [UInt8]) throws(Failure) -> [UInt8] {
        guard seed.count == seedSize else { throw Failure("an Ed25519 private key is \(seedSize) bytes, not \(seed.count)") }
        #if canImport(CryptoKit)
        do { return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: seed).publicKey.rawRepresentation) } catch {
            throw Failure("CryptoKit refused the private key: \(error)")
        }
        #elseif canImport(CLibcrypto)
        return try withPrivateKey(seed) { (key) throws(Failure) in
            try filled(publicKeySize, by: "EVP_PKEY_get_raw_public_key") { EVP_PKEY_get_raw_public_key(key, &$0, &$1) }
        }
        #else
        throw unavailable
        #endif
    }

    /// The signature of `message` by the private key `seed`.
    package static func sign(_ message: [UInt8], seed: [UInt8]) throws(Failure) -> [UInt8] {
        guard seed.count == seedSize else { throw Failure("an Ed25519 private key is \(seedSize) bytes, not \(seed.count)") }
        #if canImport(CryptoKit)
        do { return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: seed).signature(for: message)) } catch {
            throw Failure("CryptoKit could not sign: \(error)")
        }
        #elseif canImport(CLibcrypto)
        return try withPrivateKey(seed) { (key) throws(Failure) in
            guard let context = EVP_MD_CTX_new() else { throw Failure("EVP_MD_CTX_new failed") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else { throw Failure("EVP_DigestSign failed") }
            return try filled(signatureSize, by: "EVP_DigestSign") { EVP_DigestSign(context, &$0, &$1, message, message.count) }
        }
        #else
        throw unavailable
        #endif
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`
    /// (false for a key or signature of the wrong length, and where the platform has no Ed25519).
    package static func isValid(signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureSize, publicKey.count == publicKeySize else { return false }
        #if canImport(CryptoKit)
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
        #elseif canImport(CLibcrypto)
        guard let key = publicKey.withUnsafeBufferPointer({ EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, $0.count) }) else {
            return false
        }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        #else
        return false
        #endif
    }

    #if !canImport(CryptoKit) && canImport(CLibcrypto)
    /// Runs `body` with libcrypto's key for `seed`, freed after.
    private static func withPrivateKey<T>(_ seed: [UInt8], _ body: (OpaquePointer) throws(Failure) -> T) throws(Failure) -> T {
        guard let key = seed.withUnsafeBufferPointer({ EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.baseAddress, $0.count) }) else {
            throw Failure("EVP_PKEY_new_raw_private_key refused the key")
        }
        defer { EVP_PKEY_free(key) }
        return try body(key)
    }

    /// The `size` bytes libcrypto's `call` writes (a raw key, a signature):
    /// it gets the buffer and its length, and must return 1 and write exactly `size`.
    private static func filled(_ size: Int, by call: String, _ write: (inout [UInt8], inout Int) -> Int32) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var length = size
        guard write(&bytes, &length) == 1, length == size else { throw Failure("\(call) failed") }
        return bytes
    }
    #endif

    #if !canImport(CryptoKit) && !canImport(CLibcrypto)
    private static var unavailable: Failure { Failure("Ed25519 is not available on this platform (no CryptoKit, no libcrypto)") }
    #endif
}
