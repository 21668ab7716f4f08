import Events

/// A counted answer as a review of its item: **the one rule** of which
/// answers are reviews, of what item, and how they are rated
/// (docs/projections.md, "review"). `state`'s schedule
/// (``ReviewProjection``) and the optimizer's revlog (``Revlog``) both read
/// reviews through it.
///
/// - A quiz answer is a review when the attempt rules count it: the first
///   answer to a question of an attempt started after the latest `quizzes`
///   reset (``Step``'s `answered` effect). Its item is the answer's `item`
///   when it carries one (format version 2: the app's stable id, whichever
///   quiz shows it), else the attempt's quiz and the question.
/// - Every answer of a `submission.made` is a review, at the submission's
///   `at`; its item is the answer's `item`, else the content and the question.
/// - Wrong is Again; right after a hint on that question of that attempt
///   (logged before the answer) is Hard; right is Good.
package struct ReviewedAnswer: Sendable {
    /// Quiz or submission.
    package var kind: ReviewItem.Kind
    /// The quiz id or content id.
    package var source: String
    /// The question.
    package var question: String
    /// The answer's `item`, if it carries one: then the review's item is that id alone.
    package var item: String?
    /// Again, Hard or Good.
    package var rating: ReviewRating
    /// The answer's skill.
    package var skill: String?
    /// The answer's `at` (the submission's, for its answers).
    package var at: Timestamp
    /// The answer's `ms` (quiz answers only).
    package var ms: Int?

    /// Calls `body` with each review `step` makes: none, one (a counted quiz
    /// answer) or one per answer of a submission, in its order.
    @inline(__always)
    package static func forEach(in step: Step, _ body: (ReviewedAnswer) -> Void) {
        switch step.effect {
        case .answered(let attempt, let answer) where step.counts:
            var ms: Int? = nil, item: String? = nil
            if case .answerSelected(let selected) = step.envelope.event { ms = selected.ms; item = selected.item }
            body(ReviewedAnswer(kind: .quiz, source: attempt.quiz, question: answer.question, item: item,
                                rating: rating(correct: answer.correct, afterHint: answer.afterHint),
                                skill: answer.skill, at: step.envelope.at, ms: ms))
        case .submitted(let submission):
            for answer in submission.answers {
                body(ReviewedAnswer(kind: .submission, source: submission.content, question: answer.question, item: answer.item,
                                    rating: rating(correct: answer.correct, afterHint: false),
                                    skill: answer.skill, at: step.envelope.at, ms: nil))
            }
        default:
            break
        }
    }

    /// The kinds of item a step starts afresh: a `progress.reset` of `quizzes`,
    /// `submissions` or `all` (a `puzzles` reset touches no item).
    package static func resetKinds(_ step: Step) -> [ReviewItem.Kind] {
        guard case .reset(let scope) = step.effect else { return [] }
        return (scope.covers(.quizzes) ? [.quiz] : []) + (scope.covers(.submissions) ? [.submission] : [])
    }

    /// Wrong: Again; right after a hint: Hard; right: Good.
    static func rating(correct: Bool, afterHint: Bool) -> ReviewRating {
        correct ? (afterHint ? .hard : .good) : .again
    }
}
