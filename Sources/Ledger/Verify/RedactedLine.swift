import Events

/// How the chain reads a redaction stub (`RedactionStub`): its seq and
/// prev as any line's, its digest the erased line's (its `redacted`), and a
/// key in the id index that no event's id can be (`#` and the seq: `#` is
/// not allowed in an id), so a stub takes no id from the log and an erased
/// event's id can be appended again.
enum RedactedLine {
    /// The stub's key in the id index.
    static func key(seq: Int) -> LineID { LineID("#\(seq)") ?? LineID() }

    /// The line's digest as the chain uses it: a stub's `redacted`, any other line's SHA-256.
    static func chainDigest(_ bytes: UnsafeRawBufferPointer) -> SHA256.Digest {
        if let parts = RedactionStub.parts(bytes),
           let digest = SHA256.Digest(lowercaseHex: UnsafeRawBufferPointer(rebasing: bytes[parts.redacted])) {
            return digest
        }
        return LineDigest.of(bytes)
    }
}

extension ScannedLine {
    /// The line checked as a stub, or nil when it is not one. Inline: a line
    /// not of a stub's length (nearly every event line) is ruled out where
    /// this is called, by its length alone, with no call and no `CheckedLine?` made.
    @inline(__always)
    func checkedStub(hasher: IDHasher) -> CheckedLine? {
        guard !isTooLong, RedactionStub.hasStubLength(bytes.count) else { return nil }
        return checkedStubOfStubLength(hasher: hasher)
    }

    /// ``checkedStub(hasher:)`` for a line of a stub's length.
    @inline(never)
    private func checkedStubOfStubLength(hasher: IDHasher) -> CheckedLine? {
        guard let parts = RedactionStub.parts(bytes),
              let redacted = SHA256.Digest(lowercaseHex: UnsafeRawBufferPointer(rebasing: bytes[parts.redacted])),
              let prev = SHA256.Digest(lowercaseHex: UnsafeRawBufferPointer(rebasing: bytes[parts.prev])) else { return nil }
        var line = CheckedLine(number: number, offset: offset, length: length)
        line.seq = parts.seq
        line.id = RedactedLine.key(seq: parts.seq)
        line.prev = prev
        line.digest = redacted
        line.idHash = hasher.hash(line.id)
        line.isRedacted = true
        return line
    }
}
