/// A text signed by one or more keys (C2SP `signed-note`): the text, ending
/// in a newline, a blank line, then one line per signature, `— NAME BASE64`
/// (an em dash, U+2014), where BASE64 holds the key ID (4 bytes, big-endian)
/// and the signature of the text (its final newline included, the blank
/// line not).
///
/// ```
/// This is an example message.
///
/// — example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=
/// ```
public struct SignedNote: Sendable, Hashable {
    /// One signature line.
    public struct Signature: Sendable, Hashable {
        /// The signing key's name.
        public var name: String
        /// The signing key's ID.
        public var keyID: UInt32
        /// The signature of the text (64 bytes for Ed25519).
        public var signature: [UInt8]

        /// Makes one.
        public init(name: String, keyID: UInt32, signature: [UInt8]) {
            self.name = name; self.keyID = keyID; self.signature = signature
        }

        /// `NAME+HASH`: which key, in messages.
        var label: String { "\(name)+\(NoteName.hex(keyID))" }
    }

    /// The signed text, ending in a newline.
    public var text: String
    /// The signatures, in the note's order.
    public var signatures: [Signature]

    /// At most this many signature lines are read (C2SP asks for at least 16).
    static let maxSignatures = 100
    private static let dash = Array("— ".utf8)

    /// A note of `text` (which must end in a newline) with `signatures`.
    public init(text: String, signatures: [Signature]) {
        self.text = text; self.signatures = signatures
    }

    /// `text` signed with `signer`.
    public static func sign(_ text: String, with signer: NoteSigner) throws(ReceiptError) -> SignedNote {
        guard text.hasSuffix("\n"), text.utf8.allSatisfy({ $0 >= 0x20 || $0 == 0x0A }) else {
            throw ReceiptError(.malformed, path: signer.verifier.label, "a note's text must end in a newline and hold no control characters but newlines")
        }
        let signature = try signer.sign(Array(text.utf8))
        return SignedNote(text: text, signatures: [Signature(name: signer.name, keyID: signer.keyID, signature: signature)])
    }

    /// Reads a signed note; `path` and `firstLine` (the note's first line in
    /// the file) name where it is in errors. Checks the form only: see
    /// ``verify(with:path:)`` for the signatures.
    public init(parsing bytes: [UInt8], path: String, firstLine: Int = 1) throws(ReceiptError) {
        // Valid UTF-8, no control characters but newlines.
        var line = firstLine
        for b in bytes {
            if b == 0x0A { line += 1 } else if b < 0x20 {
                throw ReceiptError(.malformed, path: path, line: line, "a signed note holds no control characters but newlines")
            }
        }
        // Invalid UTF-8 decodes to U+FFFD, so it does not read back as the same bytes.
        guard String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes) else {
            throw ReceiptError(.malformed, path: path, line: firstLine, "a signed note is UTF-8 text")
        }
        // The text ends at the last blank line.
        var split: Int? = nil
        var i = bytes.count - 2
        while i >= 0 {
            if bytes[i] == 0x0A && bytes[i + 1] == 0x0A { split = i; break }
            i -= 1
        }
        guard let split else {
            throw ReceiptError(.malformed, path: path, line: firstLine, "not a signed note: no blank line between the text and the signatures")
        }
        let signatureLines = bytes[(split + 2)...]
        guard let lastByte = signatureLines.last, lastByte == 0x0A else {
            throw ReceiptError(.malformed, path: path, line: firstLine, "not a signed note: no signature line after the blank line, or no newline after the last")
        }
        self.text = String(decoding: bytes[...split], as: UTF8.self)
        var signatures: [Signature] = []
        line = firstLine + bytes[...split].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } + 1
        for raw in signatureLines.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false) {
            guard raw.starts(with: Self.dash) else {
                throw ReceiptError(.malformed, path: path, line: line, "a signature line starts with an em dash (U+2014) and a space")
            }
            let rest = String(decoding: raw.dropFirst(Self.dash.count), as: UTF8.self)
            let parts = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, NoteName.isValid(parts[0]) else {
                throw ReceiptError(.malformed, path: path, line: line, "a signature line is '— NAME BASE64' (\(NoteName.rule))")
            }
            guard let decoded = Base64.decode(parts[1]), decoded.count >= 5 else {
                throw ReceiptError(.malformed, path: path, line: line, "the signature is not base64 of a key ID and a signature")
            }
            guard signatures.count < Self.maxSignatures else {
                throw ReceiptError(.malformed, path: path, line: line, "more than \(Self.maxSignatures) signatures")
            }
            signatures.append(Signature(name: String(parts[0]), keyID: decoded[0..<4].reduce(0) { $0 << 8 | UInt32($1) },
                                        signature: Array(decoded[4...])))
            line += 1
        }
        self.signatures = signatures
    }

    /// The note as a file holds it: the text, a blank line, the signature lines.
    public var encoded: [UInt8] {
        var out = Array(text.utf8)
        out.append(0x0A)
        for s in signatures {
            let id = (0..<4).map { UInt8(truncatingIfNeeded: s.keyID >> UInt32(24 - 8 * $0)) }
            out += Self.dash + Array(s.name.utf8) + [0x20] + Array(Base64.encode(id + s.signature).utf8) + [0x0A]
        }
        return out
    }

    /// Checks that `verifier`'s key signed the text: a signature line with
    /// its name and key ID must be there (``ReceiptError/Kind/key``
    /// otherwise, naming the keys that did sign), and every such line must
    /// verify (``ReceiptError/Kind/signature``). Lines of other keys are ignored,
    /// as C2SP says.
    public func verify(with verifier: NoteVerifier, path: String) throws(ReceiptError) {
        let mine = signatures.filter { $0.name == verifier.name && $0.keyID == verifier.keyID }
        guard !mine.isEmpty else {
            let others = signatures.map(\.label).joined(separator: ", ")
            throw ReceiptError(.key, path: path, "not signed by the key \(verifier.label) (signed by \(others.isEmpty ? "no key" : others))")
        }
        let message = Array(text.utf8)
        for signature in mine where !verifier.verifies(signature.signature, of: message) {
            throw ReceiptError(.signature, path: path, "the signature by \(verifier.label) does not verify: the signed text or the signature was changed")
        }
    }
}
