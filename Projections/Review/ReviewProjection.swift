import Events

/// The fold behind `state`'s `review`: per item, its reviews in time order
/// and FSRS's memory after them (docs/projections.md, "review").
///
/// Which answers are reviews, and their ratings, is ``ReviewedAnswer``'s rule.
/// An item's reviews are applied in order of their instant, ties in log
/// order: a review at or after the item's latest steps the scheduler once; an
/// earlier one (an answer synced late) is put in its place and the item's
/// reviews are folded again. A reset of a scope drops its items. The items as
/// `state` shows them (``ReviewItem``) are made once, by ``schedule(_:day:)``.
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
        /// After the last of `reviews`; nil before the first.
        var memory: FSRSMemory?
        /// Again ratings after the first review.
        var lapses = 0
        /// The latest review's `at`, as written.
        var latest: Timestamp
        /// The latest review's skill.
        var skill: String?   // not a key: items are keyed by Key (ExactString)

        /// An item not yet reviewed, for its first review at `at`.
        init(at: Timestamp) {
            reviews = []
            latest = at
        }
    }

    /// The items, and the scheduler that folds them.
    package struct State: Sendable, Hashable {
        /// The scheduler (`StateOptions.scheduler`).
        let scheduler: FSRSScheduler
        /// Every item since its scope's latest reset.
        var items: [Key: Item] = [:]
        /// Reviews folded and resets that dropped items: a count that moves
        /// whenever the schedule can have changed (`explain`'s change mark).
        package fileprivate(set) var changes = 0

        /// No items yet.
        package init(scheduler: FSRSScheduler) { self.scheduler = scheduler }
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        ReviewedAnswer.forEach(in: step) { answer in
            add(answer, to: &state)
        }
        let reset = ReviewedAnswer.resetKinds(step)
        if !reset.isEmpty {
            state.items = state.items.filter { !reset.contains($0.key.kind) }
            state.changes += 1
        }
    }

    /// The schedule on `day`: every item, by due instant (the most overdue
    /// first), then kind, source and question.
    package static func schedule(_ state: State, day: Day?) -> ReviewSchedule {
        // Sorted as small keys (due instant, position), the names read only on a
        // tie, then each item made once.
        var order: [(due: Instant, index: Dictionary<Key, Item>.Index)] = []
        order.reserveCapacity(state.items.count)
        for index in state.items.indices {
            if let memory = state.items.values[index].memory { order.append((memory.due, index)) }
        }
        order.sort { a, b in
            if a.due != b.due { return a.due < b.due }
            let x = state.items.keys[a.index], y = state.items.keys[b.index]
            if x.kind != y.kind { return CodePoint.less(x.kind.rawValue, y.kind.rawValue) }
            if x.source != y.source { return x.source < y.source }
            return x.question < y.question
        }
        let items = order.compactMap { entry -> ReviewItem? in
            let key = state.items.keys[entry.index], item = state.items.values[entry.index]
            guard let memory = item.memory else { return nil }
            return ReviewItem(kind: key.kind, source: key.source.value, question: key.question.value, skill: item.skill,
                              stability: memory.stability, difficulty: memory.difficulty,
                              reviews: item.reviews.count, lapses: item.lapses, lastReview: item.latest,
                              due: item.latest.adding(days: memory.interval))
        }
        return ReviewSchedule(retention: state.scheduler.desiredRetention, day: day, items: items)
    }

    private static func add(_ answer: ReviewedAnswer, to state: inout State) {
        let key = Key(kind: answer.kind, source: ExactString(answer.source), question: ExactString(answer.question))
        state.changes += 1
        // One lookup, in place: a new item starts with no review.
        state.items[key, default: Item(at: answer.at)].add(Review(instant: answer.at.instant, rating: answer.rating), answer,
                                                            state.scheduler)
    }
}

extension ReviewProjection.Item {
    /// Adds a review of this item (its first, or a later one).
    mutating func add(_ review: ReviewProjection.Review, _ answer: ReviewedAnswer, _ scheduler: FSRSScheduler) {
        if let last = reviews.last, review.instant < last.instant {
            // Earlier than the latest (synced late): in its place, after the
            // reviews at the same instant, and every review folded again.
            let place = reviews.firstIndex { review.instant < $0.instant } ?? reviews.endIndex
            reviews.insert(review, at: place)
            var folded: FSRSMemory? = nil
            for r in reviews { folded = scheduler.review(folded, r.rating, at: r.instant) }
            memory = folded
            lapses = reviews.dropFirst().reduce(0) { $0 + ($1.rating == .again ? 1 : 0) }
        } else {
            // In time order: one more step, and this review is the latest.
            if review.rating == .again, !reviews.isEmpty { lapses += 1 }
            reviews.append(review)
            memory = scheduler.review(memory, review.rating, at: review.instant)
            skill = answer.skill
            latest = answer.at
        }
    }
}
