/// A signing key (C2SP `signed-note`; Go's `golang.org/x/mod/sumdb/note`),
/// written `PRIVATE+KEY+NAME+HASH+BASE64`: the key's name, its key ID as 8
/// hex digits, and the base64 of the signature type `0x01` (Ed25519) and the
/// 32-byte private key (RFC 8032's seed). Keep it secret: anyone holding it
/// can sign checkpoints in the log's name. Its public half is ``verifier``.
///
/// `progress-ledger keygen NAME --out KEYFILE` writes one (mode 0600) and
/// prints its verifier key.
public struct NoteSigner: Sendable {
    /// The key's public half.
    public let verifier: NoteVerifier
    /// The private key (secret).
    private let seed: [UInt8]

    /// The key's name.
    public var name: String { verifier.name }
    /// The key ID (the verifier key's).
    public var keyID: UInt32 { verifier.keyID }

    /// `path` names the key's file in errors (the key's name when it has none).
    private init(name: String, seed: [UInt8], path: String? = nil) throws(ReceiptError) {
        let publicKey: [UInt8]
        do { publicKey = try Ed25519.publicKey(seed: seed) } catch { throw ReceiptError(.key, path: path ?? name, error.description) }
        verifier = try NoteVerifier(name: name, publicKey: publicKey)
        self.seed = seed
    }

    /// A new key named `name`, from the platform's secure random source.
    public static func generate(name: String) throws(ReceiptError) -> NoteSigner {
        guard NoteName.isValid(name) else { throw ReceiptError(.key, path: name, NoteName.rule) }
        let seed: [UInt8]
        do { seed = try Ed25519.newSeed() } catch { throw ReceiptError(.key, path: name, error.description) }
        return try NoteSigner(name: name, seed: seed)
    }

    /// Reads `PRIVATE+KEY+NAME+HASH+BASE64` (surrounding spaces and newlines
    /// ignored); `path` names where it came from in errors. The key ID must
    /// be the hash of the name and the public key derived from the private one.
    public init(parsing text: String, path: String) throws(ReceiptError) {
        let key = try NoteName.KeyText(text, isPrivate: true, path: path)
        try self.init(name: key.name, seed: key.material, path: path)
        try key.check(derived: keyID)
    }

    /// Reads the private key in the file at `path`.
    public init(contentsOf path: String) throws(ReceiptError) {
        try self.init(parsing: try NoteName.readText(path), path: path)
    }

    /// `PRIVATE+KEY+NAME+HASH+BASE64`: the text a key file holds (secret).
    public var privateKeyText: String {
        "PRIVATE+KEY+\(name)+\(NoteName.hex(keyID))+\(Base64.encode([NoteVerifier.ed25519] + seed))"
    }

    /// The Ed25519 signature of `message`.
    public func sign(_ message: [UInt8]) throws(ReceiptError) -> [UInt8] {
        do { return try Ed25519.sign(message, seed: seed) } catch { throw ReceiptError(.key, path: verifier.label, error.description) }
    }
}
