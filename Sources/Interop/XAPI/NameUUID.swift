import Ledger

/// The name-based UUID of docs/xapi.md: UUIDv8 from SHA-256 (RFC 9562,
/// appendix B.2) under the ledger's fixed namespace, in lowercase 8-4-4-4-12 form.
enum NameUUID {
    /// `6f1d3c2a-8b4e-4c5d-9a7f-2e8b1c0d4f53`, big-endian as written.
    static let namespace: [UInt8] = [
        0x6f, 0x1d, 0x3c, 0x2a, 0x8b, 0x4e, 0x4c, 0x5d, 0x9a, 0x7f, 0x2e, 0x8b, 0x1c, 0x0d, 0x4f, 0x53,
    ]

    /// The UUID of `parts` joined by LF (`"statement"`, user, event id).
    static func of(_ parts: String...) -> String {
        var hash = SHA256()
        hash.update(namespace)
        hash.update(Array(parts.joined(separator: "\n").utf8))
        var b = Array(hash.finalize().bytes.prefix(16))
        b[6] = (b[6] & 0x0F) | 0x80
        b[8] = (b[8] & 0x3F) | 0x80
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
