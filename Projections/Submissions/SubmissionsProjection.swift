import Events

/// Per content id: submissions, best and latest score, the last 5.
package enum SubmissionsProjection {
    /// How many submissions `recent` keeps.
    package static let recentCount = 5

    /// The summaries by content id (since the latest submissions reset).
    package struct State: Sendable, Hashable {
        /// Summary per content id; `recent` is kept oldest first here and reversed when read.
        package var contents: [ExactString: SubmissionSummary] = [:]
        /// No submission yet.
        package init() {}

        /// Sorted by content id (code point), `recent` newest first.
        package var sorted: [SubmissionSummary] {
            contents.valuesInKeyOrder().map { value in
                var summary = value
                summary.recent.reverse()
                return summary
            }
        }

        /// Whether the learner submitted `content` with a score of 80 or more.
        package func mastered(_ content: String) -> Bool {
            (contents[ExactString(content)]?.bestScore ?? 0) >= 80
        }
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        switch step.effect {
        case .reset(let scope) where scope.covers(.submissions):
            state.contents = [:]
        case .submitted(let s):
            let key = ExactString(s.content)
            let score = s.score
            var summary = state.contents[key]
                ?? SubmissionSummary(content: s.content, kind: s.kind, category: s.category, totalAttempts: 0,
                                     bestScore: nil, latestScore: nil, recent: [])
            summary.kind = s.kind
            summary.category = s.category
            summary.totalAttempts += 1
            if let score { summary.bestScore = max(summary.bestScore ?? score, score) }
            summary.latestScore = score
            summary.recent.append(SubmissionSummary.Recent(correct: s.correctCount, total: s.answers.count,
                                                           at: step.envelope.at))
            if summary.recent.count > recentCount { summary.recent.removeFirst() }
            state.contents[key] = summary
        default:
            break
        }
    }
}
