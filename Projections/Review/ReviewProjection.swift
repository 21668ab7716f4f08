import Events

/// The fold behind `state`'s `review`: per item, its reviews in time order
/// and FSRS's memory after them (docs/projections.md, "review").
///
/// Which answers are reviews, and their ratings, is ``ReviewedAnswer``'s rule.
/// An item's reviews are applied in order of their instant, ties in log
/// order: a review at or after the item's latest steps the scheduler once; an
/// earlier one (an answer synced late) is put in its place and the item's
/// reviews are folded again. A reset of a scope drops every item with a
/// review of that scope. The items as `state` shows them (``ReviewItem``) are
/// made once, by ``schedule(_:day:)``.
package enum ReviewProjection {
    /// An item: the answers' `item` (the app's stable id), or without it kind,
    /// source and question; compared exactly (UTF-8 bytes, so code points).
    enum Key: Sendable, Hashable {
        case item(ExactString)
        case question(ReviewItem.Kind, source: ExactString, question: ExactString)

        /// The key of a review's item.
        init(_ answer: ReviewedAnswer) {
            if let item = answer.item {
                self = .item(ExactString(item))
            } else {
                self = .question(answer.kind, source: ExactString(answer.source), question: ExactString(answer.question))
            }
        }

        /// The `item` id, nil for a question's key.
        var item: ExactString? {
            if case .item(let id) = self { return id }
            return nil
        }
    }

    /// Where a review's question was shown: quiz or content, and question.
    struct Place: Sendable, Hashable {
        var kind: ReviewItem.Kind
        var source: String   // not a key: where an item was last seen, shown, never compared
        var question: String   // not a key: as `source`
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
        /// Where the latest review's question was shown.
        var place: Place
        /// The kinds of its reviews (bit `1 << kind`): a reset of one drops it.
        var kinds: UInt8 = 0

        /// An item not yet reviewed, for its first review, `answer`.
        init(_ answer: ReviewedAnswer) {
            reviews = []
            latest = answer.at
            place = Place(kind: answer.kind, source: answer.source, question: answer.question)
        }

        /// Whether a review of `kind` is among its reviews.
        func has(_ kind: ReviewItem.Kind) -> Bool { kinds & ReviewProjection.bit(kind) != 0 }
    }

    /// An item kind's bit in ``Item/kinds``.
    static func bit(_ kind: ReviewItem.Kind) -> UInt8 { kind == .quiz ? 1 : 2 }

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
            state.items = state.items.filter { entry in !reset.contains { entry.value.has($0) } }
            state.changes += 1
        }
    }

    /// The schedule on `day`: every item, by due instant (the most overdue
    /// first), then `item` (those without first), kind, source and question.
    /// `budget` the day's plan's (``ReviewPlan``; nil: every due item).
    package static func schedule(_ state: State, day: Day?, budget: Int? = ReviewPlan.defaultBudget) -> ReviewSchedule {
        // Sorted as small keys (due instant, position), the names read only on a
        // tie, then each item made once.
        var order: [(due: Instant, index: Dictionary<Key, Item>.Index)] = []
        order.reserveCapacity(state.items.count)
        for index in state.items.indices {
            if let memory = state.items.values[index].memory { order.append((memory.due, index)) }
        }
        order.sort { a, b in
            if a.due != b.due { return a.due < b.due }
            let x = state.items.keys[a.index].item, y = state.items.keys[b.index].item
            if x != y { return x.map { p in y.map { p < $0 } ?? false } ?? true }
            let p = state.items.values[a.index].place, q = state.items.values[b.index].place
            if p.kind != q.kind { return CodePoint.less(p.kind.rawValue, q.kind.rawValue) }
            if !CodePoint.equal(p.source, q.source) { return CodePoint.less(p.source, q.source) }
            return CodePoint.less(p.question, q.question)
        }
        var firstReviews: [Instant] = []
        firstReviews.reserveCapacity(order.count)
        let items = order.compactMap { entry -> ReviewItem? in
            let key = state.items.keys[entry.index], item = state.items.values[entry.index]
            guard let memory = item.memory, let first = item.reviews.first else { return nil }
            firstReviews.append(first.instant)
            return ReviewItem(item: key.item?.value, kind: item.place.kind, source: item.place.source,
                              question: item.place.question, skill: item.skill,
                              stability: memory.stability, difficulty: memory.difficulty,
                              reviews: item.reviews.count, lapses: item.lapses, lastReview: item.latest,
                              due: item.latest.adding(days: memory.interval))
        }
        let plan = ReviewPlan.on(day, budget: budget, items: items, seenBefore: { k in
            // Answered before D: its first review is before D's midnight in its latest review's offset.
            guard let day else { return false }
            let midnight = Int64(day.ordinal) * 86_400 - Int64(items[k].lastReview.offsetMinutes) * 60
            return firstReviews[k] < Instant(seconds: midnight, nanoseconds: 0)
        }, retrievability: { item in
            guard let day else { return 1 }
            return state.scheduler.retrievability(elapsedDays: max(0, day.ordinal - item.lastReview.day.ordinal),
                                                  stability: item.stability)
        })
        return ReviewSchedule(retention: state.scheduler.desiredRetention, day: day, items: items, plan: plan)
    }

    private static func add(_ answer: ReviewedAnswer, to state: inout State) {
        state.changes += 1
        // One lookup, in place: a new item starts with no review.
        state.items[Key(answer), default: Item(answer)].add(Review(instant: answer.at.instant, rating: answer.rating), answer,
                                                            state.scheduler)
    }
}

extension ReviewProjection.Item {
    /// Adds a review of this item (its first, or a later one).
    mutating func add(_ review: ReviewProjection.Review, _ answer: ReviewedAnswer, _ scheduler: FSRSScheduler) {
        kinds |= ReviewProjection.bit(answer.kind)
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
            place = ReviewProjection.Place(kind: answer.kind, source: answer.source, question: answer.question)
        }
    }
}
