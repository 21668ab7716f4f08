import Events

/// The fold behind `state`'s `review`: per item, its reviews in time order
/// and FSRS's memory after them (docs/projections.md, "review").
///
/// Which answers are reviews, and their ratings, is ``ReviewedAnswer``'s rule.
/// An item's reviews are applied in order of their instant, ties in log
/// order: a review at or after the item's latest steps the scheduler once; an
/// earlier one (an answer synced late) is put in its place and the item's
/// reviews are folded again. A reset of a scope drops its items.
package enum ReviewProjection {
    /// An item: kind, source and question, compared exactly.
    struct Key: Sendable, Hashable {
        var kind: ReviewItem.Kind
        var source: ExactString
        var question: ExactString
    }

    /// One review of an item: when, and its rating.
    struct Review: Sendable, Hashable {
        var instant: Instant
        var rating: ReviewRating
    }

    /// An item's reviews and what they made of it.
    struct Item: Sendable, Hashable {
        /// In time order (ties in log order).
        var reviews: [Review]
        /// After the last of `reviews`.
        var memory: FSRSMemory
        /// The item as `state` shows it.
        var shown: ReviewItem
    }

    /// The items, and the scheduler that folds them.
    package struct State: Sendable, Hashable {
        /// The scheduler (``StateOptions/scheduler``).
        let scheduler: FSRSScheduler
        /// Every item since its scope's latest reset.
        var items: [Key: Item] = [:]

        /// No items yet.
        package init(scheduler: FSRSScheduler) { self.scheduler = scheduler }
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        ReviewedAnswer.forEach(in: step) { answer in
            add(answer, to: &state)
        }
        let reset = ReviewedAnswer.resetKinds(step)
        if !reset.isEmpty { state.items = state.items.filter { !reset.contains($0.key.kind) } }
    }

    /// The schedule on `day`: every item, most overdue first.
    package static func schedule(_ state: State, day: Day?) -> ReviewSchedule {
        ReviewSchedule(retention: state.scheduler.desiredRetention, day: day,
                       items: state.items.values.map(\.shown).sorted(by: ReviewItem.inOrder))
    }

    private static func add(_ answer: ReviewedAnswer, to state: inout State) {
        let key = Key(kind: answer.kind, source: ExactString(answer.source), question: ExactString(answer.question))
        let review = Review(instant: answer.at.instant, rating: answer.rating)
        // In place when the item exists (one lookup), else a new item.
        guard state.items[key]?.add(review, answer, state.scheduler) == nil else { return }
        let memory = state.scheduler.review(nil, review.rating, at: review.instant)
        state.items[key] = Item(reviews: [review], memory: memory, shown: ReviewItem(
            kind: answer.kind, source: answer.source, question: answer.question, skill: answer.skill,
            stability: memory.stability, difficulty: memory.difficulty, reviews: 1, lapses: 0,
            lastReview: answer.at, due: answer.at.adding(days: memory.interval)))
    }
}

extension ReviewProjection.Item {
    /// Adds a later review of this item.
    mutating func add(_ review: ReviewProjection.Review, _ answer: ReviewedAnswer, _ scheduler: FSRSScheduler) {
        if let last = reviews.last, review.instant < last.instant {
            // Earlier than the latest (synced late): in its place, after the
            // reviews at the same instant, and every review folded again.
            let place = reviews.firstIndex { review.instant < $0.instant } ?? reviews.endIndex
            reviews.insert(review, at: place)
            var folded: FSRSMemory? = nil
            for r in reviews { folded = scheduler.review(folded, r.rating, at: r.instant) }
            if let folded { memory = folded }
            shown.lapses = reviews.dropFirst().reduce(0) { $0 + ($1.rating == .again ? 1 : 0) }
        } else {
            // In time order: one more step, and this review is the latest.
            reviews.append(review)
            memory = scheduler.review(memory, review.rating, at: review.instant)
            if review.rating == .again { shown.lapses += 1 }
            shown.skill = answer.skill
            shown.lastReview = answer.at
        }
        shown.reviews = reviews.count
        shown.stability = memory.stability
        shown.difficulty = memory.difficulty
        shown.due = shown.lastReview.adding(days: memory.interval)
    }
}
