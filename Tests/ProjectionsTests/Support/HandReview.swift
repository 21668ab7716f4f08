import Events
import Projections

/// FSRS-6 items worked by hand (py-fsrs's default parameters, retention 0.9;
/// `ReviewTests` shows the arithmetic), for the tests that state a whole state.
enum Hand {
    /// A new item answered right (Good): S = w2, D = w4 - e^(2 w5) + 1, due 2 days after `at`.
    static func good(_ source: String, _ question: String, kind: ReviewItem.Kind = .quiz, skill: String? = nil,
                     at: String, due: String) -> ReviewItem {
        ReviewItem(kind: kind, source: source, question: question, skill: skill, stability: 2.3065,
                   difficulty: 2.118103970459016, reviews: 1, lapses: 0, lastReview: stamp(at), due: stamp(due))
    }

    /// A new item answered wrong (Again): S = w0, D = w4, due 1 day after `at`.
    static func again(_ source: String, _ question: String, kind: ReviewItem.Kind = .quiz, skill: String? = nil,
                      at: String, due: String) -> ReviewItem {
        ReviewItem(kind: kind, source: source, question: question, skill: skill, stability: 0.212,
                   difficulty: 6.4133, reviews: 1, lapses: 0, lastReview: stamp(at), due: stamp(due))
    }

    /// A new item answered right after a hint (Hard): S = w1, D = w4 - e^(w5) + 1, due 1 day after `at`.
    static func hard(_ source: String, _ question: String, kind: ReviewItem.Kind = .quiz, skill: String? = nil,
                     at: String, due: String) -> ReviewItem {
        ReviewItem(kind: kind, source: source, question: question, skill: skill, stability: 1.2931,
                   difficulty: 5.112170705601056, reviews: 1, lapses: 0, lastReview: stamp(at), due: stamp(due))
    }

    /// The schedule of these items on `day` (in the state's order: by due instant).
    static func schedule(_ items: [ReviewItem], on day: Day) -> ReviewSchedule {
        ReviewSchedule(day: day, items: items)
    }
}

extension LearnerState {
    /// The state with its review items' stability and difficulty rounded to
    /// 1e-9: hand-worked doubles are compared to that precision (a C library
    /// other than glibc may differ in the last bit), everything else exactly.
    var reviewRounded: LearnerState {
        var copy = self
        for k in copy.review.items.indices {
            copy.review.items[k].stability = (copy.review.items[k].stability * 1e9).rounded() / 1e9
            copy.review.items[k].difficulty = (copy.review.items[k].difficulty * 1e9).rounded() / 1e9
        }
        return copy
    }
}
