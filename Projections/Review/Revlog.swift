import Events

/// Every learner's reviews as cards, for the open-source FSRS optimizer
/// (`export --format revlog`, docs/projections.md, "review"): the same reviews
/// and ratings `state` schedules (its `review` member), each item's in time
/// order, ties in log order. A reset of a scope ends the cards with a review
/// of that scope: the item's later reviews are a new card (its next `generation`).
///
/// Feed it each log's records in log order (for a ledger directory, each
/// learner log in order; learners are independent), then read ``cards``.
/// Memory: each learner's attempts, as `state` keeps them, and every review.
public struct Revlog: Sendable {
    /// One card: an item of a learner since a reset of its scope, and its reviews.
    public struct Card: Sendable, Hashable {
        /// The learner.
        public var user: String
        /// The answers' `item` (the app's stable id): the card is that item;
        /// nil for a card that is one question of one quiz or content.
        public var item: String?
        /// Quiz or submission (of its first review, for a card with `item`).
        public var kind: ReviewItem.Kind
        /// The quiz id or content id (of its first review, for a card with `item`).
        public var source: String
        /// The question (of its first review, for a card with `item`).
        public var question: String
        /// How many resets that dropped the item came before this card's reviews (0: none).
        public var generation: Int
        /// Its reviews, in time order (ties in log order).
        public var reviews: [Review]
    }

    /// One review of a card.
    public struct Review: Sendable, Hashable {
        /// When it happened.
        public var at: Instant
        /// Again, Hard or Good.
        public var rating: ReviewRating
        /// The answer's `ms`, if given.
        public var ms: Int?
    }

    /// A learner's attempts and resets so far.
    private struct Learner: Sendable {
        var book = AttemptsBook()
        var generation: [ReviewItem.Kind: Int] = [:]
        /// Per `item`: its generation, and the kinds of its reviews since (``ReviewProjection/bit(_:)``).
        var items: [ExactString: (generation: Int, kinds: UInt8)] = [:]
    }

    /// A review as read, with its card's key and its place in the read.
    private struct Entry: Sendable {
        var user: ExactString
        var item: ExactString?
        var kind: ReviewItem.Kind
        var source: ExactString
        var question: ExactString
        var generation: Int
        var order: Int
        var review: Review
    }

    private var learners: [ExactString: Learner] = [:]
    private var entries: [Entry] = []

    /// A revlog that has read nothing.
    public init() {}

    /// Reads one record (records of each learner in log order); lines of a
    /// newer format version are skipped.
    public mutating func add(_ record: Record) {
        guard case .event(let envelope) = record else { return }
        let user = ExactString(envelope.user)
        let step = learners[user, default: Learner()].book.apply(envelope)
        let generation = learners[user]?.generation ?? [:]
        ReviewedAnswer.forEach(in: step) { answer in
            var itemGeneration: Int? = nil
            let item = answer.item.map(ExactString.init)
            if let item {
                let bit = ReviewProjection.bit(answer.kind)
                let current = learners[user]?.items[item] ?? (0, 0)
                learners[user]?.items[item] = (current.generation, current.kinds | bit)
                itemGeneration = current.generation
            }
            entries.append(Entry(user: user, item: item, kind: answer.kind, source: ExactString(answer.source),
                                 question: ExactString(answer.question),
                                 generation: itemGeneration ?? generation[answer.kind] ?? 0,
                                 order: entries.count, review: Review(at: answer.at.instant, rating: answer.rating, ms: answer.ms)))
        }
        for kind in ReviewedAnswer.resetKinds(step) {
            learners[user]?.generation[kind, default: 0] += 1
            // An item with a review of the scope is dropped, as the schedule drops it.
            let bit = ReviewProjection.bit(kind)
            for (id, entry) in learners[user]?.items ?? [:] where entry.kinds & bit != 0 {
                learners[user]?.items[id] = (entry.generation + 1, 0)
            }
        }
    }

    /// Every card, by user, then `item` (cards without first, code point
    /// order), then kind, source and question for those without, then generation.
    public var cards: [Card] {
        let sorted = entries.sorted { a, b in
            if a.user != b.user { return a.user < b.user }
            if a.item != b.item { return a.item.map { x in b.item.map { x < $0 } ?? false } ?? true }
            if a.item == nil {
                if a.kind != b.kind { return CodePoint.less(a.kind.rawValue, b.kind.rawValue) }
                if a.source != b.source { return a.source < b.source }
                if a.question != b.question { return a.question < b.question }
            }
            if a.generation != b.generation { return a.generation < b.generation }
            if a.review.at != b.review.at { return a.review.at < b.review.at }
            return a.order < b.order
        }
        var cards: [Card] = []
        for e in sorted {
            if let last = cards.last, CodePoint.equal(last.user, e.user.value), CodePoint.equal(last.item, e.item?.value),
               e.item != nil || (last.kind == e.kind && CodePoint.equal(last.source, e.source.value)
                                 && CodePoint.equal(last.question, e.question.value)),
               last.generation == e.generation {
                cards[cards.count - 1].reviews.append(e.review)
            } else {
                cards.append(Card(user: e.user.value, item: e.item?.value, kind: e.kind, source: e.source.value,
                                  question: e.question.value, generation: e.generation, reviews: [e.review]))
            }
        }
        return cards
    }
}
