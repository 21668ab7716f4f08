/// The member names in the order the ledger writes them, as tokens the
/// decoder compares with the line a word at a time.
///
/// After a member's value, the decoder first tries the token of the member
/// the writer puts next (and the two after it, as optional members may be
/// left out): `,"name":` matched at once stands for the comma, the name and
/// the colon, which is exactly what the general path would read there. On
/// any other bytes (whitespace, another order, escapes, the end of the
/// object) the general path reads the member; so the tokens change the speed,
/// never the result.
struct NameToken {
    /// `,"name":` (`"name":` for the first member), as words.
    private let token: Spelling
    /// The token's bytes (``WriterWalks``' tables hold them).
    var spelling: Spelling { token }
    /// The token's length in bytes (at most 24).
    var count: Int { token.count }
    /// Where the decoder keeps the member.
    let slot: Int
    /// The offset of the name's opening quote in the token.
    let quote: Int

    init(_ name: String, slot: Int, first: Bool) {
        token = Spelling((first ? "" : ",") + "\"\(name)\":")
        self.slot = slot
        quote = first ? 0 : 1
    }

    /// Whether the line holds this token at `i`; the line must have 24 bytes from `i`.
    @inline(__always) func matches(_ line: UnsafeRawBufferPointer, at i: Int) -> Bool { token.matches(line, at: i) }
}

/// Up to 24 bytes known only at run time (a name, a token), kept as three
/// little-endian words and masks so that a line is compared with them eight
/// bytes at a time. Plain values only: copying one retains nothing.
struct Spelling {
    private let w: (UInt64, UInt64, UInt64)
    private let m: (UInt64, UInt64, UInt64)
    /// How many bytes (at most 24).
    let count: Int

    init(_ text: String) {
        let bytes = Array(text.utf8)
        precondition(bytes.count <= 24, "a spelling is at most 24 bytes")
        func word(_ k: Int) -> (UInt64, UInt64) {
            var w: UInt64 = 0, m: UInt64 = 0
            for j in bytes.indices where j >= k && j < k + 8 {
                w |= UInt64(bytes[j]) << UInt64(8 * (j - k))
                m |= 0xFF << UInt64(8 * (j - k))
            }
            return (w, m)
        }
        let (w0, m0) = word(0), (w1, m1) = word(8), (w2, m2) = word(16)
        w = (w0, w1, w2)
        m = (m0, m1, m2)
        count = bytes.count
    }

    /// Byte `k` (< ``count``).
    @inline(__always) subscript(_ k: Int) -> UInt8 {
        let word = k < 8 ? w.0 : k < 16 ? w.1 : w.2
        return UInt8(truncatingIfNeeded: word >> UInt64(8 &* (k & 7)))
    }

    /// Whether the line holds these bytes at `i`; the line must have 24 bytes from `i`.
    @inline(__always) func matches(_ line: UnsafeRawBufferPointer, at i: Int) -> Bool {
        @inline(__always) func word(_ k: Int) -> UInt64 {
            UInt64(littleEndian: line.loadUnaligned(fromByteOffset: i &+ k, as: UInt64.self))
        }
        return word(0) & m.0 == w.0 && (count <= 8 || word(8) & m.1 == w.1) && (count <= 16 || word(16) & m.2 == w.2)
    }
}

enum WriterOrder {
    /// The envelope's members by slot (`EnvelopeMember.rawValue`); each
    /// object of `data` has its own (``MemberLayout``).
    static let envelope: [NameToken] = names.enumerated().map { NameToken($0.element, slot: $0.offset, first: $0.offset == 0) }
    /// The envelope's member names by slot.
    static let names = ["v", "seq", "id", "at", "user", "device", "type", "data", "prev"]
}

extension JSONScanner {
    /// Tries the tokens of the member the writer puts next (slot `next`) and
    /// the two after it; on a match, skips the token (the caller then skips
    /// the whitespace after the colon) and returns it. The first member of an object (`first`) is
    /// tried only as slot 0 (its token has no comma); later ones never as slot 0.
    @inline(__always) mutating func matchName(_ tokens: [NameToken], next: Int, first: Bool) -> NameToken? {
        guard i &+ 24 <= bytes.count else { return nil }
        let from = first ? 0 : max(next, 1)
        let end = first ? min(1, tokens.count) : min(tokens.count, from &+ 3)
        var k = from
        while k < end {
            let token = tokens[k]
            if token.matches(bytes, at: i) {
                i &+= token.count
                return token
            }
            k &+= 1
        }
        return nil
    }
}
