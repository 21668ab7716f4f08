import Events

/// One thing a learner is to remember, as FSRS schedules it (`state`'s
/// `review.items`): the answers' `item` when they carry one (the app's stable
/// id: one bank question in several quizzes is one item), else one question
/// of one quiz or content; where it was last seen, its memory after its
/// latest review, and when it is due.
public struct ReviewItem: Sendable, Hashable {
    /// Where a question comes from.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A question of a quiz (`source` is the quiz id of its `quiz.started`).
        case quiz
        /// A question of a lesson or passage (`source` is the content id of its `submission.made`).
        case submission
    }

    /// The app's stable id of the item (the answers' `item`); nil for an item
    /// that is one question of one quiz or content (answers without `item`).
    public var item: String?
    /// Quiz or submission: where its latest review was (for an item without
    /// `item`, where it is).
    public var kind: Kind
    /// The quiz id or the content id of its latest review: the quiz (or
    /// lesson) it was last seen in.
    public var source: String
    /// The question id of its latest review.
    public var question: String
    /// The skill of its latest review's answer, if that answer named one.
    public var skill: String?
    /// FSRS stability after the latest review: days for recall to fall to 90%.
    public var stability: Double
    /// FSRS difficulty after the latest review, 1 … 10.
    public var difficulty: Double
    /// Its reviews: counted answers since the latest reset of its scope.
    public var reviews: Int
    /// Again ratings (wrong answers) after its first review.
    public var lapses: Int
    /// The latest review's `at`, as written.
    public var lastReview: Timestamp
    /// When it is due, in the offset of the latest review.
    public var due: Timestamp

    /// The day of ``due`` in its offset: the item is due on day D when this is D or earlier.
    public var dueDay: Day { due.day }

    /// Makes an item.
    public init(item: String? = nil, kind: Kind, source: String, question: String, skill: String?, stability: Double,
                difficulty: Double, reviews: Int, lapses: Int, lastReview: Timestamp, due: Timestamp) {
        self.item = item; self.kind = kind; self.source = source; self.question = question; self.skill = skill
        self.stability = stability; self.difficulty = difficulty; self.reviews = reviews; self.lapses = lapses
        self.lastReview = lastReview; self.due = due
    }
}
