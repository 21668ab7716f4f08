import Simulation

/// The name the seeded tests used for their own copy of SplitMix64, kept so
/// that tests written against it (on branches made before the copies were
/// folded) still compile and draw the same numbers. It shadows Simulation's
/// `SeededGenerator` (the demo's xoshiro256**) in this target.
@available(*, deprecated, renamed: "SplitMix64", message: "use Simulation's SplitMix64")
typealias SeededGenerator = SplitMix64
