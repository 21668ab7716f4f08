/// The 64-bit hash the id indexes file an id under: SipHash-1-3 (the
/// standard library's `Hasher`), keyed with the process's random seed.
///
/// Keyed, so that no log can be written to make many ids share a hash: the
/// reader's index keeps only hashes and reads a line back from the file for
/// every hash it finds twice (``IDFingerprints``), which stays rare only if
/// nobody can choose the collisions. Computed where the line is decoded (on a
/// reader's worker thread).
struct IDHasher: Sendable {
    /// Only these bits of the hash are kept. Tests narrow it to force collisions.
    var mask: UInt64 = ~0

    /// The hash of an id's UTF-8 bytes.
    @inline(__always) func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return UInt64(UInt(bitPattern: hasher.finalize())) & mask
    }

    /// The hash of an id.
    func hash(_ id: String) -> UInt64 {
        var copy = id
        return copy.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }
}
