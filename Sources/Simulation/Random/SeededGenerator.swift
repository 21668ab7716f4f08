/// A small, fast, seeded pseudo-random generator: xoshiro256** seeded through SplitMix64.
///
/// The simulation never uses the system generator or the standard library's
/// `random(in:using:)` (whose algorithm may change between toolchains): every
/// draw goes through the methods here, so a seed gives the same log on every
/// machine and Swift version.
package struct SeededGenerator: Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// Makes the generator of `seed`, on the independent stream named by `streams`
    /// (for example a learner's index and a day), so one learner's draws never
    /// depend on how many other learners there are.
    package init(seed: UInt64, streams: UInt64...) {
        var mix = SplitMix64(seed: seed)
        for stream in streams {
            mix = SplitMix64(seed: mix.next() ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        }
        s0 = mix.next(); s1 = mix.next(); s2 = mix.next(); s3 = mix.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    /// A uniform integer in `0 ..< n` (0 when `n <= 1`), without modulo bias (Lemire).
    package mutating func below(_ n: Int) -> Int {
        guard n > 1 else { return 0 }
        let bound = UInt64(n)
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A uniform value in `[0, 1)` with 53 random bits.
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform value in `range`.
    package mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of a non-empty array, uniformly.
    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
