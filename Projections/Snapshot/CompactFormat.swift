/// The compact binary form of a `Codable` value that snapshots use.
///
/// Every value starts with a one-byte tag, so the bytes can be checked and
/// skipped without knowing the types:
///
/// | tag | value |
/// |---|---|
/// | `nil` | nothing |
/// | `false`, `true` | nothing |
/// | `int` | a signed integer, zigzag LEB128 |
/// | `uint` | an unsigned integer, LEB128 |
/// | `double` | 8 bytes, the IEEE 754 bit pattern, little-endian |
/// | `float` | 4 bytes, likewise |
/// | `string` | LEB128 byte count, then UTF-8 |
/// | `keyed` | then `key`-value pairs, then `end` |
/// | `unkeyed` | a 4-byte little-endian count, then that many values |
/// | `key` | LEB128 byte count, then the key's UTF-8 (only inside `keyed`) |
///
/// Three leaves are written directly rather than through their `Codable`
/// containers, for speed: a `Day` as its ordinal (`int`), a `Timestamp` and an
/// `ExactString` as their text (`string`).
///
/// Keys are written in full and checked when read, in the order written: a
/// field renamed, added, removed or moved by a later version of the code makes
/// the decoder fail instead of reading one field as another. (A change of
/// meaning with the same fields still needs a version bump: see
/// ``LearnerProjector/snapshotVersion``.)
///
/// Containers are streamed: a container is closed (its `end` written, its
/// count patched) when its parent writes its next field or the value ends, so
/// nested containers must be used one at a time, in order, as synthesized
/// `Codable` code does.
package enum CompactFormat {
    /// The one-byte tags.
    package enum Tag: UInt8 {
        case null = 0, `false` = 1, `true` = 2, int = 3, uint = 4, double = 5, float = 6,
             string = 7, keyed = 8, unkeyed = 9, end = 10, key = 11
    }

    /// Deeper nesting than this is refused when reading (a damaged input could otherwise exhaust the stack).
    package static let maxDepth = 256
}
