import Events

/// The demo's summary of memory: over the answers that carry an `item`, how
/// many after the first week are to items the learner had seen before, and
/// how often learners who follow their review plan answer a returning item
/// right, against the others. Fed the demo's events in recording order.
package struct DemoRecall: Sendable {
    /// Right and all answers.
    package struct Tally: Sendable, Hashable {
        package var right = 0, answers = 0
        /// The percent right, rounded; nil with no answers.
        package var percent: Int? { Percent.of(right, answers) }
    }

    private let followers: Set<String>
    private let firstWeekEnd: Day
    private var seen: [String: Set<String>] = [:]
    /// Answers to items seen before: by learners who follow their plan, and by the others.
    package private(set) var followersReturning = Tally(), othersReturning = Tally()
    /// Answers after the first week: all, and those to items seen before (`right` counts those).
    package private(set) var afterFirstWeek = Tally()

    /// A summary of the demo of `options`.
    package init(_ demo: DemoLog) {
        followers = demo.planFollowers
        firstWeekEnd = demo.options.start.adding(days: 7)
    }

    /// Reads one event.
    package mutating func add(_ event: NewEvent) {
        let answers: [(item: String?, correct: Bool)]
        switch event.event {
        case .answerSelected(let a): answers = [(a.item, a.correct)]
        case .submissionMade(let s): answers = s.answers.map { ($0.item, $0.correct) }
        default: return
        }
        for (item, correct) in answers {
            guard let item else { continue }
            let before = seen[event.user, default: []].insert(item).inserted == false
            if before {
                if followers.contains(event.user) { followersReturning.add(correct) } else { othersReturning.add(correct) }
            }
            if event.at.day >= firstWeekEnd { afterFirstWeek.add(before) }
        }
    }

    /// Lines for a person.
    package var text: String {
        func pct(_ t: Tally) -> String { t.percent.map { "\($0)%" } ?? "–" }
        return """
            memory: \(pct(afterFirstWeek)) of the \(afterFirstWeek.answers) answers after the first week are to items seen before
              returning items answered right: \(pct(followersReturning)) by the \(followers.count) learners who follow their review plan \
            (\(followersReturning.answers) answers), \(pct(othersReturning)) by the others (\(othersReturning.answers) answers)

            """
    }
}

extension DemoRecall.Tally {
    mutating func add(_ right: Bool) { answers += 1; if right { self.right += 1 } }
}

extension DemoLog {
    /// The learners who take the review quiz their plan asks each day they use the app.
    package var planFollowers: Set<String> {
        Set((0..<options.users).map { Learner(index: $0, users: options.users, days: options.days, seed: options.seed) }
            .filter(\.followsPlan).map(\.id))
    }
}
