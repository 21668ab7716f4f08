import Events

/// An exact running sum of fractions `score / questions`, for the report's
/// mean score percent: the mean of `100 * score / questions`, rounded once,
/// halves up, at the end (never a mean of already rounded percents).
package struct ScoreMean: Sendable, Hashable {
    /// How many fractions were added.
    package private(set) var count = 0
    /// The exact sum, reduced: `numerator / denominator`.
    private var numerator = 0
    private var denominator = 1
    /// The sum as a Double once exact arithmetic would overflow (thousands of
    /// distinct, large question counts in one day); nil while exact.
    private var approximate: Double?

    /// Adds `score / questions` (`questions` > 0).
    mutating func add(score: Int, questions: Int) {
        add(numerator: score, denominator: questions, count: 1)
    }

    /// Adds another sum.
    mutating func merge(_ other: ScoreMean) {
        if let value = other.approximate {
            count += other.count
            approximate = (approximate ?? Double(numerator) / Double(denominator)) + value
        } else {
            add(numerator: other.numerator, denominator: other.denominator, count: other.count)
        }
    }

    /// `round(100 * sum / count)`, halves up; nil when nothing was added.
    package var percent: Int? {
        guard count > 0 else { return nil }
        if approximate == nil {
            let (whole, overflow) = denominator.multipliedReportingOverflow(by: count)
            if !overflow, numerator.magnitude < UInt(Int.max / 200) { return Percent.of(numerator, whole) }
        }
        let mean = 100 * (approximate ?? Double(numerator) / Double(denominator)) / Double(count)
        return Int((mean + 0.5).rounded(.down))
    }

    private mutating func add(numerator a: Int, denominator b: Int, count n: Int) {
        count += n
        guard b > 0 else { return }
        if let value = approximate {
            approximate = value + Double(a) / Double(b)
            return
        }
        // n/d + a/b = (n*(b/g) + a*(d/g)) / (d*(b/g)), g = gcd(d, b); when
        // b = d (most days: one question count), g = b and both quotients
        // are 1, taken without dividing (the same numbers).
        var (bg, dg) = (1, 1)
        if b != denominator {
            let g = gcd(denominator, b)
            (bg, dg) = (b / g, denominator / g)
        }
        let (left, o1) = numerator.multipliedReportingOverflow(by: bg)
        let (right, o2) = a.multipliedReportingOverflow(by: dg)
        let (sum, o3) = left.addingReportingOverflow(right)
        let (whole, o4) = denominator.multipliedReportingOverflow(by: bg)
        if o1 || o2 || o3 || o4 {
            approximate = Double(numerator) / Double(denominator) + Double(a) / Double(b)
            return
        }
        let r = gcd(abs(sum), whole)
        numerator = r > 1 ? sum / r : sum
        denominator = r > 1 ? whole / r : whole
    }

    private func gcd(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }
}
