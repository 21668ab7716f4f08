import Events

/// The deterministic demo: simulated learners' events, in the order a server
/// would record them, as a lazy sequence.
///
/// The same options give the same events (ids and timestamps included) on
/// every machine: every draw comes from a ``SeededGenerator`` of the seed, and
/// nothing reads a clock. Events are generated one simulated day at a time and
/// released as soon as no later day can precede them, so memory stays bounded
/// by about two days of events whatever `users` and `days` are.
package struct DemoLog: Sequence, Sendable {
    /// What to simulate.
    package struct Options: Sendable, Hashable {
        /// How many learners.
        package var users: Int
        /// How many calendar days.
        package var days: Int
        /// The seed of every random draw.
        package var seed: UInt64
        /// The first simulated day.
        package var start: Day

        /// The first simulated day by default: 2025-10-06, so that the default
        /// 30 days cross the end of daylight-saving time in Europe (10-26) and
        /// the United States (11-02).
        package static let defaultStart = Day(ordinal: 20_367)

        /// Makes options; defaults give a log of a few thousand events.
        package init(users: Int = 30, days: Int = 30, seed: UInt64 = 42, start: Day = defaultStart) {
            self.users = Swift.max(0, users); self.days = Swift.max(0, days); self.seed = seed; self.start = start
        }
    }

    /// The options.
    package let options: Options

    /// Makes the demo of `options`.
    package init(_ options: Options = Options()) { self.options = options }

    /// The learner the demo shows first: they travel, resume a daily quiz, take
    /// one just before midnight, and have a late-recorded answer and a hint overdraw.
    package var showcaseUser: String? {
        options.users > 0 ? Learner(index: 0, users: options.users, days: options.days, seed: options.seed).id : nil
    }

    /// The events, in recording order.
    package func makeIterator() -> Iterator { Iterator(options) }

    /// Produces the events lazily, one simulated day at a time.
    package struct Iterator: IteratorProtocol, Sendable {
        private let options: Options
        private var learners: [Learner]
        private var sink = Sink()
        private var nextDay = 0

        init(_ options: Options) {
            self.options = options
            learners = (0..<options.users).map {
                Learner(index: $0, users: options.users, days: options.days, seed: options.seed)
            }
        }

        /// The next event in recording order, or nil after the last day.
        package mutating func next() -> NewEvent? {
            while true {
                if let first = sink.heap.first, nextDay >= options.days || first.recordedAt < releaseBound {
                    return sink.heap.popFirst()?.event
                }
                guard nextDay < options.days else { return nil }
                let day = options.start.adding(days: nextDay)
                for k in learners.indices {
                    learners[k].live(dayIndex: nextDay, day: day, seed: options.seed, into: &sink)
                    learners[k].keepStreak(dayIndex: nextDay, day: day, seed: options.seed, into: &sink)
                }
                nextDay += 1
            }
        }

        /// Nothing generated for a day not yet simulated can happen before local
        /// midnight at UTC+14:00 of that day: every event before it is final.
        private var releaseBound: Instant {
            Instant.midnight(of: options.start.adding(days: nextDay), offsetMinutes: 14 * 60)
        }
    }
}
