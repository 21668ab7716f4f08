/// A verifier key (C2SP `signed-note`; Go's `golang.org/x/mod/sumdb/note`):
/// the public half of a ``NoteSigner``, which anyone may hold, written
/// `NAME+HASH+BASE64`: the key's name, its key ID as 8 hex digits, and the
/// base64 of the signature type `0x01` (Ed25519) and the 32-byte public key.
///
/// ```
/// example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k
/// ```
public struct NoteVerifier: Sendable, Hashable, CustomStringConvertible {
    /// The key's name (non-empty; no spaces, no `+`).
    public let name: String
    /// The key ID: the first 4 bytes, big-endian, of `SHA-256(name || 0x0A || 0x01 || public key)`.
    public let keyID: UInt32
    /// The 32-byte Ed25519 public key.
    public let publicKey: [UInt8]

    /// The signature type byte of Ed25519.
    static let ed25519: UInt8 = 0x01

    /// The verifier of the Ed25519 `publicKey` named `name`.
    public init(name: String, publicKey: [UInt8]) throws(ReceiptError) {
        guard NoteName.isValid(name) else { throw ReceiptError(.key, path: name, NoteName.rule) }
        guard publicKey.count == Ed25519.publicKeySize else {
            throw ReceiptError(.key, path: name, "an Ed25519 public key is \(Ed25519.publicKeySize) bytes, not \(publicKey.count)")
        }
        self.name = name
        self.publicKey = publicKey
        keyID = Self.keyID(name: name, publicKey: publicKey)
    }

    /// Reads `NAME+HASH+BASE64` (surrounding spaces and newlines ignored, as
    /// in a file); `path` names where it came from in errors.
    public init(parsing text: String, path: String) throws(ReceiptError) {
        let key = try NoteName.KeyText(text, isPrivate: false, path: path)
        try self.init(name: key.name, publicKey: key.material)
        try key.check(derived: keyID)
    }

    /// Reads the verifier key in the file at `path`.
    public init(contentsOf path: String) throws(ReceiptError) {
        try self.init(parsing: try NoteName.readText(path), path: path)
    }

    /// The key ID of the Ed25519 `publicKey` named `name`.
    static func keyID(name: String, publicKey: [UInt8]) -> UInt32 {
        let digest = SHA256.hash(Array(name.utf8) + [0x0A, ed25519] + publicKey).bytes
        return digest[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Whether `signature` is this key's signature of `message`.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        Ed25519.isValid(signature: signature, of: message, publicKey: publicKey)
    }

    /// `NAME+HASH+BASE64`.
    public var description: String { "\(name)+\(NoteName.hex(keyID))+\(Base64.encode([Self.ed25519] + publicKey))" }

    /// `NAME+HASH`: which key, in messages.
    public var label: String { "\(name)+\(NoteName.hex(keyID))" }
}

/// The rules the note formats share for key names and key texts.
enum NoteName {
    /// What ``isValid(_:)`` requires, for messages.
    static let rule = "a key name must be non-empty, without spaces, '+' or control characters"

    /// Whether `name` can name a key: non-empty, no Unicode space, no `+`,
    /// no control character (a signed note may hold none but newlines).
    static func isValid(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0.properties.isWhitespace || $0 == "+" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `id` as 8 lowercase hex digits.
    static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// `text` without the spaces and newlines around it.
    static func trimmed(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }

    /// A key text's parts, `[PRIVATE+KEY+]NAME+HASH+BASE64` (surrounding
    /// spaces and newlines ignored): the name, the key ID `HASH` (8 hex
    /// digits) and the key material `BASE64` holds after its type byte
    /// `0x01` (Ed25519: 32 bytes, the public key or the private one).
    struct KeyText {
        let name: String
        let hash: String
        let id: UInt32
        let material: [UInt8]
        let path: String

        private static let privatePrefix = "PRIVATE+KEY+"

        /// Reads a private key's text (`isPrivate`) or a verifier key's.
        init(_ text: String, isPrivate: Bool, path: String) throws(ReceiptError) {
            let trimmed = NoteName.trimmed(text)
            let form = isPrivate ? "not a private key: expected PRIVATE+KEY+NAME+HASH+BASE64" : "not a verifier key: expected NAME+HASH+BASE64"
            guard trimmed.hasPrefix(Self.privatePrefix) == isPrivate else {
                throw ReceiptError(.malformed, path: path, form + (isPrivate ? "" : " (this is a private key: give its verifier key)"))
            }
            let parts = trimmed.dropFirst(isPrivate ? Self.privatePrefix.count : 0)
                .split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { throw ReceiptError(.malformed, path: path, form) }
            (name, hash, self.path) = (parts[0], parts[1], path)
            guard NoteName.isValid(name) else { throw ReceiptError(.malformed, path: path, "the key's name \"\(name)\": \(NoteName.rule)") }
            let isHex: (UInt8) -> Bool = { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
            guard hash.utf8.count == 8, hash.utf8.allSatisfy(isHex), let id = UInt32(hash, radix: 16) else {
                throw ReceiptError(.malformed, path: path, "the key ID \"\(hash)\" is not 8 hex digits")
            }
            self.id = id
            guard let bytes = Base64.decode(parts[2]), let type = bytes.first else {
                throw ReceiptError(.malformed, path: path, "the key data is not base64")
            }
            guard type == NoteVerifier.ed25519 else {
                throw ReceiptError(.key, path: path, "the key's signature type is \(type); only 1 (Ed25519) is supported")
            }
            guard bytes.count == 33 else { throw ReceiptError(.malformed, path: path, "an Ed25519 key is 32 bytes, not \(bytes.count - 1)") }
            material = Array(bytes.dropFirst())
        }

        /// Refuses the text unless its key ID is `derived`, the hash of the name and the public key.
        func check(derived: UInt32) throws(ReceiptError) {
            guard id == derived else {
                throw ReceiptError(.malformed, path: path, "the key ID \(hash) is not the hash of the name and the public key (\(NoteName.hex(derived)))")
            }
        }
    }

    /// The text of the small file at `path` (a key).
    static func readText(_ path: String) throws(ReceiptError) -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// The bytes of the file at `path` (at most 1 MiB), as they are: a note's
    /// parser checks they are UTF-8 (``readText(_:)`` would hide bad bytes).
    static func readBytes(_ path: String) throws(ReceiptError) -> [UInt8] {
        do { return try SmallFile.read(path, limit: 1 << 20) } catch {
            throw ReceiptError(reading: error)
        }
    }
}
