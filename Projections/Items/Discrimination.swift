/// The corrected point-biserial of a question: the Pearson correlation between
/// the question's correctness `x` (1/0) and the attempt's score on its other
/// questions `y`, over finished attempts.
enum Discrimination {
    /// The sums the correlation is computed from, over the pairs added so
    /// far: all that a question keeps of its finished attempts (pairs add up
    /// in any order, so learners folded apart are merged by adding their sums).
    struct Sums: Sendable, Hashable {
        /// Pairs.
        var n = 0
        /// Σx, Σy, Σx², Σy², Σxy.
        var sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0

        /// Adds one finished attempt: x its correctness on the question (1/0), y its score on the others.
        mutating func add(x: Int, y: Int) {
            n += 1
            sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y
        }

        /// Adds another's pairs.
        mutating func add(_ other: Sums) {
            n += other.n
            sx += other.sx; sy += other.sy; sxx += other.sxx; syy += other.syy; sxy += other.sxy
        }

        /// The correlation times 100, rounded half away from zero, exactly; nil
        /// with fewer than ``ItemAnalysis/minimumForDiscrimination`` pairs or when
        /// either side has no variance.
        var hundredths: Int? {
            guard n >= ItemAnalysis.minimumForDiscrimination else { return nil }
            // r = (n Σxy − Σx Σy) / sqrt((n Σx² − (Σx)²)(n Σy² − (Σy)²))
            let num = n * sxy - sx * sy
            let vx = n * sxx - sx * sx, vy = n * syy - sy * sy
            guard vx > 0, vy > 0 else { return nil }
            let magnitude = 100 * Double(num.magnitude) / (Double(vx).squareRoot() * Double(vy).squareRoot())
            var k = Int(magnitude.rounded(.down))
            // |r| × 100 >= k + ½ ⇔ (200 |num|)² >= (2k + 1)² vx vy, compared in 128 bits.
            if Discrimination.atLeastHalfAbove(k, num: num.magnitude, vx: UInt(vx), vy: UInt(vy)) { k += 1 }
            return num < 0 ? -k : k
        }
    }

    private static func atLeastHalfAbove(_ k: Int, num: UInt, vx: UInt, vy: UInt) -> Bool {
        let a = 200 * num
        let left = a.multipliedFullWidth(by: a)
        let odd = UInt(2 * k + 1)
        let right = (odd * odd * vx).multipliedFullWidth(by: vy)
        return left.high != right.high ? left.high > right.high : left.low >= right.low
    }
}
