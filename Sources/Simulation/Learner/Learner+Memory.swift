import Events
import Projections

/// What a simulated learner remembers of one bank item: when they last saw
/// it, and how many times in a row they have answered it right since.
struct ItemMemory: Sendable {
    var lastSeen: Instant
    var successes: Int
}

/// The review plan a learner who follows it sees: the app's own schedule
/// (`ReviewProjection`, the `review` member of `state`) over the learner's
/// own events as their devices record them, read each day through the
/// default budget (``ReviewPlan``).
struct PlanKeeping: Sendable {
    private var book = AttemptsBook()
    private var review = ReviewProjection.State(scheduler: .standard)
    private var seq = 0

    /// Folds one of the learner's events.
    mutating func add(_ event: NewEvent) {
        seq += 1
        let step = book.apply(event.sealed(seq: seq, id: event.id ?? "", prev: ""))
        ReviewProjection.reduce(into: &review, step)
    }

    /// The bank items to ask on `day`: the plan's, within the default budget.
    func items(on day: Day) -> [String] {
        ReviewProjection.schedule(review, day: day).plan.items.compactMap(\.item)
    }
}

/// The demo's forgetting curve (docs/projections.md, "The demo's learners").
///
/// The first time a learner meets an item, the chance to answer it right is
/// their ability in its skill, less the quiz's difficulty penalty, plus a
/// hint's help. When it returns `t` days after they last saw it, the chance is
/// `0.25 + (ceiling - 0.25) · R`: `0.25` a guess among 4 choices, `ceiling`
/// the first-sight chance plus 0.15 (at most 0.98), and
/// `R = (1 + t / (9 S))^-1` the recall of FSRS's power curve (R = 0.9 after
/// S days), with stability `S = 0.5 · 3^n` days after `n` right answers in a
/// row (a wrong answer starts `n` again from 0). Every answer shows the right
/// choice, so the item is seen again, whatever the answer.
enum ForgettingCurve {
    /// Days of stability after `successes` right answers in a row.
    static func stability(successes: Int) -> Double {
        var s = 0.5
        for _ in 0..<min(successes, 12) { s *= 3 }
        return s
    }

    /// The chance to answer right: `firstSight` on first sight, else recalled after `days`.
    static func chance(firstSight: Double, memory: ItemMemory?, days: Double) -> Double {
        guard let memory else { return firstSight }
        let recall = 1 / (1 + max(0, days) / (9 * stability(successes: memory.successes)))
        let ceiling = min(0.98, firstSight + 0.15)
        return 0.25 + (ceiling - 0.25) * recall
    }
}

extension Learner {
    /// The chance to answer `item` right at `now` (``ForgettingCurve``).
    func recallChance(_ item: String, firstSight: Double, at now: Instant) -> Double {
        let memory = memory[item]
        let days = memory.map { Double(now.seconds - $0.lastSeen.seconds) / 86_400 } ?? 0
        return ForgettingCurve.chance(firstSight: firstSight, memory: memory, days: days)
    }

    /// The learner saw `item` at `now` and answered it right or wrong.
    mutating func remember(_ item: String, correct: Bool, at now: Instant) {
        let before = memory[item]?.successes ?? 0
        memory[item] = ItemMemory(lastSeen: now, successes: correct ? before + 1 : 0)
    }

    /// A review quiz of the items the learner's plan asks today, for a learner who follows it.
    mutating func reviewQuiz(_ day: Day, in session: inout Session, _ rng: inout SeededGenerator, to sink: inout Sink) {
        guard let plan else { return }
        let items = plan.items(on: day)
        guard !items.isEmpty else { return }
        let quiz = "review-\(id)-\(day)"
        reviewQuizzes[quiz] = items
        let started = QuizStarted(attempt: newAttemptID(), quiz: quiz, questions: items.count, title: "Today's review")
        let (attempt, logged) = start(started, in: &session, &rng, to: &sink)
        answer(attempt, of: logged, questions: 0..<items.count, penalty: 0, in: &session, &rng, to: &sink)
        end(attempt, of: logged, finished: true, in: &session, &rng, to: &sink)
    }

    /// The bank items of a quiz's `count` questions, in order: a review quiz's
    /// as the learner's plan chose them (in turn again past its end: a glitch
    /// that reuses a review attempt's id answers more questions than it had),
    /// any other quiz's the catalog's.
    func items(of quiz: String, count: Int) -> [String] {
        guard let chosen = reviewQuizzes[quiz], !chosen.isEmpty else { return Catalog.items(ofQuiz: quiz, count: count) }
        return (0..<count).map { chosen[$0 % chosen.count] }
    }
}
