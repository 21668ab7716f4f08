/// SplitMix64 (Steele, Lea and Flood): a tiny seeded generator whose every
/// output is a well-mixed function of the seed and the draw's index.
///
/// The simulation uses it to expand one seed into ``SeededGenerator``'s state
/// words; the test targets use it as their one seeded `RandomNumberGenerator`,
/// so a property test's seed gives the same values on every machine and Swift
/// version (the algorithm is written here, not the standard library's).
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let byte = UInt8(truncatingIfNeeded: rng.next())
/// let k = Int.random(in: 0..<10, using: &rng)
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The state: the seed plus the golden-ratio increment once per draw.
    package private(set) var state: UInt64

    /// Makes the generator whose draws are those of `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
