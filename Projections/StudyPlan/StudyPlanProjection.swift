import Events

/// The fold behind the study plan: per category and skill, the most recent
/// counted answers of each source (quiz attempts, submissions), and the
/// categories with a completed diagnostic.
///
/// Each source keeps its own last 20 so that a reset of one scope leaves the
/// other's answers intact; the window of 20 is taken over both at the end.
package enum StudyPlanProjection {
    /// Answers per category and skill that count (the most recent ones).
    package static let window = 20

    /// A skill within a category.
    package struct Key: Sendable, Hashable {
        /// The category; nil for quiz attempts whose `quiz.started` had none.
        package var category: ExactString?
        /// The skill.
        package var skill: ExactString
    }

    /// One counted answer: its place in the log and whether it counts as right.
    package struct Entry: Sendable, Hashable {
        /// The event's `seq`.
        package var seq: Int
        /// The item's index within a submission (0 for quiz answers).
        package var item: Int
        /// Right, and not given after a hint on the same question of the same attempt.
        package var correct: Bool

        /// Whether this answer is more recent than `other`.
        func isAfter(_ other: Entry) -> Bool { seq != other.seq ? seq > other.seq : item > other.item }
    }

    /// The last answers of each source for one skill, oldest first.
    package struct Window: Sendable, Hashable {
        /// From quiz attempts (cleared by a quizzes reset).
        package var quiz: [Entry] = []
        /// From submissions (cleared by a submissions reset).
        package var submission: [Entry] = []

        /// The most recent `window` entries of both sources.
        package var counted: [Entry] {
            var merged: [Entry] = []
            var i = quiz.count - 1, j = submission.count - 1
            while merged.count < StudyPlanProjection.window, i >= 0 || j >= 0 {
                if j < 0 || (i >= 0 && quiz[i].isAfter(submission[j])) {
                    merged.append(quiz[i]); i -= 1
                } else {
                    merged.append(submission[j]); j -= 1
                }
            }
            return merged
        }
    }

    /// The plan's raw material.
    package struct State: Sendable, Hashable {
        /// Windows per category and skill.
        package var windows: [Key: Window] = [:]
        /// Categories with a finished diagnostic quiz (nil: a diagnostic quiz without category).
        package var quizDiagnostics: Set<ExactString?> = []
        /// Categories with a diagnostic submission.
        package var submissionDiagnostics: Set<ExactString?> = []
        /// Nothing yet.
        package init() {}
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        switch step.effect {
        case .reset(let scope):
            if scope.covers(.quizzes) {
                state.quizDiagnostics = []
                for key in state.windows.keys { state.windows[key]?.quiz = [] }
            }
            if scope.covers(.submissions) {
                state.submissionDiagnostics = []
                for key in state.windows.keys { state.windows[key]?.submission = [] }
            }
            state.windows = state.windows.filter { !$0.value.quiz.isEmpty || !$0.value.submission.isEmpty }
        case .answered(let attempt, let answer) where step.counts:
            guard let skill = answer.skill else { return }
            let key = Key(category: attempt.start.category.map(ExactString.init), skill: ExactString(skill))
            append(&state.windows[key, default: Window()].quiz,
                   Entry(seq: step.seq, item: 0, correct: answer.correct && !answer.afterHint))
        case .finished(let attempt) where step.counts && attempt.start.isDiagnostic:
            state.quizDiagnostics.insert(attempt.start.category.map(ExactString.init))
        case .submitted(let s):
            if s.isDiagnostic { state.submissionDiagnostics.insert(ExactString(s.category)) }
            for (item, answer) in s.answers.enumerated() {
                guard let skill = answer.skill else { continue }
                let key = Key(category: ExactString(s.category), skill: ExactString(skill))
                append(&state.windows[key, default: Window()].submission,
                       Entry(seq: step.seq, item: item, correct: answer.correct))
            }
        default:
            break
        }
    }

    private static func append(_ entries: inout [Entry], _ entry: Entry) {
        entries.append(entry)
        if entries.count > window { entries.removeFirst(entries.count - window) }
    }
}
