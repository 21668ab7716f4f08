/// The formulas of FSRS-6, one function each, written as py-fsrs 6.x writes
/// them (`fsrs/scheduler.py`): the same operations in the same order, so that
/// with the same C `pow` they give the same bits. Python's `round` is
/// round-half-to-even; `min`/`max` keep the first operand on a tie.
extension FSRSScheduler {
    /// Stability is never below this (py-fsrs's `STABILITY_MIN`).
    static let minimumStability = 0.001

    /// `_initial_stability`: `w[rating - 1]`, at least the minimum.
    func initialStability(_ rating: ReviewRating) -> Double {
        clampStability(parameters[rating.rawValue - 1])
    }

    /// `_initial_difficulty(clamp: true)`: `w[4] - e^(w[5] (rating - 1)) + 1`, within 1 … 10.
    func initialDifficulty(_ rating: ReviewRating) -> Double {
        clampDifficulty(parameters[4] - LibM.power(LibM.e, parameters[5] * Double(rating.rawValue - 1)) + 1)
    }

    /// `get_card_retrievability`: `(1 + factor t / S)^decay` after `t` whole days.
    func retrievability(elapsedDays: Int, stability: Double) -> Double {
        LibM.power(1 + factor * Double(elapsedDays) / stability, decay)
    }

    /// `_next_interval`: the days until recall falls to the desired retention,
    /// rounded half to even, at least 1 and at most ``maximumInterval``.
    func nextInterval(stability: Double) -> Int {
        let days = ((stability / factor) * retentionFactor).rounded(.toNearestOrEven)
        guard days < Double(maximumInterval) else { return maximumInterval }
        guard days >= 1 else { return 1 }
        return Int(days)
    }

    /// `_short_term_stability`: a second review less than a day after the last.
    func shortTermStability(_ stability: Double, _ rating: ReviewRating) -> Double {
        var increase = LibM.power(LibM.e, parameters[17] * (Double(rating.rawValue - 3) + parameters[18]))
            * LibM.power(stability, -parameters[19])
        if rating != .again { increase = max(increase, 1.0) }
        return clampStability(stability * increase)
    }

    /// `_next_difficulty`: linear damping towards 10, then mean reversion to
    /// the initial difficulty of Easy, within 1 … 10.
    func nextDifficulty(_ difficulty: Double, _ rating: ReviewRating) -> Double {
        let delta = -(parameters[6] * Double(rating.rawValue - 3))
        let damped = difficulty + (10.0 - difficulty) * delta / 9.0
        return clampDifficulty(parameters[7] * easyDifficulty + (1 - parameters[7]) * damped)
    }

    /// `_next_stability`: after a lapse (Again) the forget stability, else the
    /// recall stability; at least the minimum.
    func nextStability(difficulty d: Double, stability s: Double, retrievability r: Double, _ rating: ReviewRating) -> Double {
        let w = parameters
        if rating == .again {
            let longTerm = w[11] * LibM.power(d, -w[12]) * (LibM.power(s + 1, w[13]) - 1)
                * LibM.power(LibM.e, (1 - r) * w[14])
            let shortTerm = s / LibM.power(LibM.e, w[17] * w[18])
            return clampStability(shortTerm < longTerm ? shortTerm : longTerm)
        }
        let hardPenalty = rating == .hard ? w[15] : 1
        let easyBonus = rating == .easy ? w[16] : 1
        return clampStability(s * (1 + LibM.power(LibM.e, w[8]) * (11 - d) * LibM.power(s, -w[9])
            * (LibM.power(LibM.e, (1 - r) * w[10]) - 1) * hardPenalty * easyBonus))
    }

    /// `_clamp_stability`.
    private func clampStability(_ s: Double) -> Double { s < Self.minimumStability ? Self.minimumStability : s }

    /// `_clamp_difficulty`: `min(max(d, 1), 10)`.
    private func clampDifficulty(_ d: Double) -> Double { min(max(d, 1.0), 10.0) }
}
