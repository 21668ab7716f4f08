import Events

/// What FSRS remembers of an item after its latest review: its stability,
/// difficulty, when it was reviewed and the interval to its next review.
package struct FSRSMemory: Sendable, Hashable {
    /// Days for recall to fall to 90%.
    package var stability: Double
    /// 1 (easy) … 10 (hard).
    package var difficulty: Double
    /// The instant of the latest review.
    package var lastReview: Instant
    /// Whole days from the latest review to the next.
    package var interval: Int

    /// The instant the item is due: the latest review plus `interval` days of 86,400 seconds.
    package var due: Instant {
        Instant(seconds: lastReview.seconds + Int64(interval) * FSRSScheduler.secondsPerDay, nanoseconds: lastReview.nanoseconds)
    }
}

extension FSRSScheduler {
    /// Seconds in py-fsrs's day (a `timedelta(days=1)`).
    static let secondsPerDay: Int64 = 86_400

    /// `review_card` of py-fsrs with no learning or relearning steps and no
    /// fuzz: the memory after a review rated `rating` at `instant`, given the
    /// memory before it (nil for the item's first review). Reviews must come
    /// in time order (`instant` not before `memory.lastReview`).
    ///
    /// The first review sets the initial stability and difficulty. A later
    /// one less than a whole day (86,400 s) after the last is a same-day
    /// review (the short-term stability); otherwise the stability follows the
    /// retrievability after the whole days elapsed. The difficulty moves with
    /// every later review; the interval comes from the new stability.
    package func review(_ memory: FSRSMemory?, _ rating: ReviewRating, at instant: Instant) -> FSRSMemory {
        guard let memory else {
            let stability = initialStability(rating)
            return FSRSMemory(stability: stability, difficulty: initialDifficulty(rating), lastReview: instant,
                              interval: nextInterval(stability: stability))
        }
        let elapsed = Self.wholeDays(from: memory.lastReview, to: instant)
        let stability = elapsed < 1
            ? shortTermStability(memory.stability, rating)
            : nextStability(difficulty: memory.difficulty, stability: memory.stability,
                            retrievability: retrievability(elapsedDays: elapsed, stability: memory.stability), rating)
        return FSRSMemory(stability: stability, difficulty: nextDifficulty(memory.difficulty, rating), lastReview: instant,
                          interval: nextInterval(stability: stability))
    }

    /// Whole days of 86,400 s from `a` to `b` (`timedelta.days`: rounded down), at least 0.
    static func wholeDays(from a: Instant, to b: Instant) -> Int {
        let nanoseconds = a.duration(to: b).nanoseconds
        guard nanoseconds > 0 else { return 0 }
        return Int(nanoseconds / (secondsPerDay * 1_000_000_000))
    }
}
