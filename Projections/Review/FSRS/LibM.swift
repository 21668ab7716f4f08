#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// The platform's C math library, for the scheduler's powers: the only file
/// of Projections that imports it.
///
/// py-fsrs computes every power with Python's `float.__pow__`, which is C's
/// `pow` (`math.e ** x` included: `pow(2.718281828459045, x)`, not `exp(x)`),
/// so calling the same `pow` with the same operands gives the same bits on the
/// same C library. Another C library (Apple's, musl) may differ in the last
/// bit of a few results (docs/projections.md, "review").
enum LibM {
    /// `x` to the power `y`, as C's `pow`.
    @inline(__always)
    static func power(_ x: Double, _ y: Double) -> Double { pow(x, y) }

    /// Euler's number as Python's `math.e` holds it: the double nearest e.
    static let e = 2.718281828459045
}
